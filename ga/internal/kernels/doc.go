// Package kernels is the arithmetic of ga's array math on one process's
// memory: pure functions over runs of elements ([]T, T one of ga's element
// types), which know nothing of arrays, distributions or processes.
//
// Package ga's calls (Add, Dot, the element-wise and patch operations, the
// norms, SelectElem, the line-search steps, the scans, Pack, Unpack and
// Randomize)
// validate their arguments and agree on them, walk the blocks this process
// owns in runs contiguous in its storage, and hand each run here.
//
// What depends on the kind of number (real elements ordered by value,
// complex ones by magnitude, as GA C orders them) is a Kinds, chosen once
// per call by Of (kinds.go). The per-element arithmetic is in arith.go, the
// steps' work in step.go, the segmented scans and packing in scan.go,
// Randomize's values in random.go. Long
// float runs go to C kernels that GCC vectorizes (package cgo's entry points
// for ga), which may write their output with non-temporal stores where it
// would not stay in the cache anyway (ckernels.go; ga sets the threshold at
// Init). Integers wrap on overflow and divide as integers do, as in Go and
// GA C.
package kernels
