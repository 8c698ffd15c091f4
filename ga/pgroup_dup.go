package ga

// Duplicate makes a new group of p's processes, with the same ranks
// (GA_Pgroup_duplicate): arrays, mutexes and syncs on it are apart from
// p's. It is collective over p (GA's is over p's parent; the group made is
// the same).
func (p *Pgroup) Duplicate() (*Pgroup, error) {
	const op = "PgroupDuplicate"
	return p.divide(op, nil, newArgs(op), func(*group) int { return 0 })
}

// PgroupSelf makes a group of this process alone (GA_Pgroup_self). Like
// PgroupCreate, it is collective over the default group: each of its
// processes gets its own group.
func PgroupSelf() (*Pgroup, error) {
	const op = "PgroupSelf"
	g, err := current(op)
	if err != nil {
		return nil, err
	}
	return g.pg.divide(op, nil, newArgs(op), func(g *group) int { return g.rank })
}

// AbsoluteId returns the world rank of the process of rank pid in p
// (GA_Pgroup_absolute_id), or -1 if p has no such rank or is nil.
func (p *Pgroup) AbsoluteId(pid int) int {
	if p == nil || pid < 0 || pid >= len(p.members) {
		return -1
	}
	return p.members[pid]
}
