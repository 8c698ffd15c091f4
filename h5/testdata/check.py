# check.py FILE SPEC: h5py reads the file goga wrote and checks each
# dataset of SPEC (JSON: datasets with path, dtype, dims, chunk, name and
# grid; attrs with path, name and value) for its dtype, shape, layout,
# values and attributes. Exits non-zero, saying what differs, on any
# difference.
import json
import sys

import h5py
import numpy as np

from common import val

name, spec = sys.argv[1], json.loads(sys.argv[2])
bad = []
with h5py.File(name, "r") as f:
    for d in spec["datasets"]:
        ds = f[d["path"]]
        want = val(d["dtype"], d["dims"])
        if ds.dtype != want.dtype:
            bad.append(f"{d['path']}: dtype {ds.dtype}, want {want.dtype}")
        if ds.shape != tuple(d["dims"]):
            bad.append(f"{d['path']}: shape {ds.shape}, want {tuple(d['dims'])}")
        if ds.chunks != (tuple(d["chunk"]) if d["chunk"] else None):
            bad.append(f"{d['path']}: chunks {ds.chunks}, want {d['chunk']}")
        if ds.shape == want.shape and not np.array_equal(ds[()], want):
            bad.append(f"{d['path']}: values differ: {ds[()].ravel()[:8]}... want {want.ravel()[:8]}...")
        if ds.attrs.get("name") != d["name"]:
            bad.append(f"{d['path']}: attribute name {ds.attrs.get('name')!r}, want {d['name']!r}")
        if list(ds.attrs.get("distribution", [])) != d["grid"]:
            bad.append(f"{d['path']}: attribute distribution {ds.attrs.get('distribution')}, want {d['grid']}")
    for a in spec["attrs"]:
        got = f[a["path"]].attrs.get(a["name"])
        want = a["value"]
        same = got == want if isinstance(want, str) else np.array_equal(np.asarray(got), np.asarray(want))
        if not same or isinstance(want, str) != isinstance(got, str):
            bad.append(f"{a['path']}: attribute {a['name']} is {got!r} ({type(got).__name__}), want {want!r}")
if bad:
    sys.exit("\n".join(bad))
