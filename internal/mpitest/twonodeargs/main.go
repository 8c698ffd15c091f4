// Command twonodeargs prints, one per line, the mpirun arguments that place
// a job of NP ranks on the two nodes simulated on this machine (mpitest's
// TwoNodes), so that scripts launch jobs exactly as the tests do:
//
//	go run ./internal/mpitest/twonodeargs NP
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/goga-hpc/goga/internal/mpitest"
)

func main() {
	np, err := strconv.Atoi(os.Args[len(os.Args)-1])
	if len(os.Args) != 2 || err != nil || np < 1 {
		fmt.Fprintln(os.Stderr, "usage: twonodeargs NP")
		os.Exit(2)
	}
	if why := mpitest.TwoNodesUsable(); why != "" {
		fmt.Fprintln(os.Stderr, "twonodeargs: two simulated nodes:", why)
		os.Exit(1)
	}
	for _, a := range mpitest.TwoNodes.Args(np) {
		fmt.Println(a)
	}
}
