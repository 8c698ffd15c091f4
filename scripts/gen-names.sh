#!/usr/bin/env bash
# gen-names.sh: writes the lists of C routine names that the name-table tests
# (ga/nametable_test.go, blacs/nametable_test.go) hold ga/doc.go's and
# blacs/doc.go's tables to:
#
#   ga/testdata/ga-names.txt        every GA_ and NGA_ routine that GA's
#       global/src/ga.h declares (GlobalArrays/ga at ga_commit below), one a
#       line; "NAME SAME" where NAME is SAME under the other prefix with the
#       same parameter types (ga.h declares most routines as both GA_X and
#       NGA_X, and capi.c defines both as one call), or NAME is SAME with
#       int64_t indices (NGA_Get64)
#   blacs/testdata/blacs-names.txt  every routine of the BLACS's C interface
#       that Debian's ScaLAPACK library exports (Cblacs_gridinit, Cdgesd2d,
#       Csys2blacs_handle...; Debian ships no BLACS header), one a line
#
# Usage: scripts/gen-names.sh [GA_H [LIBSCALAPACK]]. GA_H defaults to that
# ga.h fetched from GitHub, LIBSCALAPACK to Open MPI's ScaLAPACK of
# scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ga_commit=dd4034712e5ecc88d08a8c0d4ef56a45230660e4
ga_h=${1:-}
lib=${2:-/usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$ga_h" ]; then
  ga_h=$tmp/ga.h
  curl -fsSL "https://raw.githubusercontent.com/GlobalArrays/ga/$ga_commit/global/src/ga.h" -o "$ga_h"
fi

{
  echo "# The C routines of GA's global/src/ga.h (GlobalArrays/ga $ga_commit),"
  echo "# written by scripts/gen-names.sh: NAME, or NAME SAME where NAME is the"
  echo "# routine SAME under the other prefix (same parameter types) or with"
  echo "# int64_t indices."
  python3 - "$ga_h" <<'PY'
import re
import sys

src = open(sys.argv[1]).read()
src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
src = re.sub(r"//[^\n]*", " ", src)


def params(text, start):
    """The text between the parenthesis at start and its match."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    raise SystemExit("gen-names.sh: unbalanced parentheses in ga.h")


def types(ret, plist):
    """The return and parameter types, parameter names dropped."""
    out = []
    for p in re.split(r",(?![^()]*\))", plist):
        p = re.sub(r"\b\w+\s*\[\s*\]", " * ", p)
        toks = re.findall(r"\w+|\*|\(|\)", p)
        words = [t for t in toks if re.match(r"\w", t)]
        if "(" not in toks and len(words) >= 2 and toks[-1] == words[-1]:
            toks = toks[:-1]
        out.append(" ".join(toks))
    return " ".join(re.findall(r"\w+|\*", ret)) + "(" + ",".join(out) + ")"


sig = {}
for m in re.finditer(r"extern\s+([^;{}]*?)\b(N?GA_\w+)\s*\(", src):
    sig.setdefault(m.group(2), types(m.group(1), params(src, m.end() - 1)))
for name in sorted(sig):
    same = ""
    other = ("GA_" + name[4:]) if name.startswith("NGA_") else "N" + name
    base = name[:-2] if name.endswith("64") else ""
    if base in sig:
        same = base
    elif name.startswith("NGA_") and sig.get(other) == sig[name]:
        same = other
    print(name + (" " + same if same else ""))
PY
} >ga/testdata/ga-names.txt

{
  echo "# The BLACS's C interface as Debian's ScaLAPACK exports it ($(basename "$lib")),"
  echo "# written by scripts/gen-names.sh."
  nm -D --defined-only "$lib" | awk '{print $3}' |
    grep -E '^C(blacs_[a-z]+|[isdcz](ge|tr)(sd|rv|bs|br)2d|[isdcz]g(sum|amx|amn)2d|sys2blacs_handle|blacs2sys_handle|free_blacs_system_handle|d(cpu|wall)time00|k(send|recv|bs|br)id)$' |
    sort
} >blacs/testdata/blacs-names.txt
wc -l ga/testdata/ga-names.txt blacs/testdata/blacs-names.txt
