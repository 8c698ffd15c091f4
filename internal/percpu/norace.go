//go:build !race

package percpu

const race = false
