package main

import (
	"math"
	"strconv"
)

// clusterConfig places n atoms as md_cluster's newcfg does for a cluster
// alone (no solvent): on the sites of a body-centred cubic lattice of cube
// side 1.5, filling a sphere about the lattice's middle, site by site in
// the order of its loops, widening the sphere until n sites are taken.
// The positions are moved so the centre of mass is at the origin and
// rounded to 5 decimals, as newcfg writes them to the file the simulation
// reads. It returns the radius of the confining sphere as well: the
// farthest atom's distance from the centre plus 0.1, at least rcut.
func clusterConfig(n int, rcut float64) ([][3]float64, float64) {
	const mult = 1.5
	cube := func(x float64) float64 { return math.Pow(x, 1.0/3.0) }
	nside := int(math.Round(cube(0.5 * float64(n))))
	if 2*nside*nside*nside < n {
		nside++
	}
	volume := 0.5 * float64(n) * mult * mult * mult
	irad := int(cube(3*volume/(4*math.Pi))/mult) + 1
	if 2*irad >= nside {
		nside = 2*irad + 2
	}
	side := mult * float64(nside)
	d := side / float64(nside)
	cent := nside / 2
	type site struct{ x, y, z, sub int }
	fill := map[site]bool{}
	pos := make([][3]float64, n)
	// newcfg fixes the range of x before it widens the sphere.
	xlo, xhi := cent-irad, cent+irad
	for {
		count := 0
		for ix := xlo; ix <= xhi; ix++ {
			wy := int(math.Sqrt(float64(irad*irad - (ix-cent)*(ix-cent))))
			for iy := cent - wy; iy <= cent+wy; iy++ {
				wz := int(math.Sqrt(float64(irad*irad - (ix-cent)*(ix-cent) - (iy-cent)*(iy-cent))))
				for iz := cent - wz; iz <= cent+wz; iz++ {
					corner := [3]float64{d*float64(ix-1) - side/2, d*float64(iy-1) - side/2, d*float64(iz-1) - side/2}
					for sub, off := range []float64{0, mult / 2} {
						s := site{ix, iy, iz, sub}
						if !fill[s] && count < n {
							pos[count] = [3]float64{corner[0] + off, corner[1] + off, corner[2] + off}
							fill[s] = true
							count++
						}
					}
				}
			}
		}
		if count == n {
			break
		}
		irad++
	}
	var cm [3]float64
	for _, p := range pos {
		for j := range cm {
			cm[j] += p[j]
		}
	}
	for j := range cm {
		cm[j] /= float64(n)
	}
	rmax := 0.0
	for _, p := range pos {
		rmax = math.Max(rmax, math.Sqrt(sq(p[0]-cm[0])+sq(p[1]-cm[1])+sq(p[2]-cm[2])))
	}
	rmax += 0.1
	for i := range pos {
		for j := range cm {
			pos[i][j] = round5(pos[i][j] - cm[j])
		}
	}
	return pos, math.Max(rmax, rcut)
}

// round5 rounds x to 5 decimals, as a Fortran f12.5 write and read do.
func round5(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 5, 64), 64)
	return y
}

func sq(x float64) float64 { return x * x }
