//go:build race

package percpu

const race = true
