# bench-apps-md.awk: turns scripts/bench-apps.sh's output (bin/bench-apps.tsv)
# into a markdown table for BENCHMARKS.md, one row per application and
# layout, and the runs that failed or did not finish as a list below it:
#
#	awk -f scripts/bench-apps-md.awk bin/bench-apps.tsv
BEGIN {
	FS = "\t"
	where["2"] = "2, one node"
	where["1+1"] = "1 + 1, two nodes"
	where["2+2"] = "2 + 2, two nodes"
}
/^#/ {
	if (NR > 1) {
		note = substr($0, 3)
		sub(/, see .*/, "", note)
		notes[++nnotes] = note
	}
	next
}
$1 == "app" || NF != 8 { next }
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	if ($3 == "-") { none[key] = $8; next }
	problem[key] = $4
	goga[key, $3] = $5
	orig[key, $3] = $6
	ratio[key, $3] = $8
}
END {
	print "| application | problem | ranks | iterations | per iteration, goga | original | total, goga | original | original/goga |"
	print "|---|---|---|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= n; i++) {
		k = order[i]
		split(k, f, SUBSEP)
		w = (f[2] in where) ? where[f[2]] : f[2]
		if (k in none) {
			printf "| %s | | %s | | | | | | %s |\n", f[1], w, none[k]
			continue
		}
		it = goga[k, "iterations"]
		if (orig[k, "iterations"] != it) it = it " (original " orig[k, "iterations"] ")"
		printf "| %s | %s | %s | %s | %s ms | %s ms | %s s | %s s | %s |\n", f[1], problem[k], w, it,
			goga[k, "per_iter_ms"], orig[k, "per_iter_ms"], goga[k, "total_s"], orig[k, "total_s"], ratio[k, "total_s"]
	}
	if (nnotes > 0) {
		print ""
		for (i = 1; i <= nnotes; i++) print "- " notes[i]
	}
}
