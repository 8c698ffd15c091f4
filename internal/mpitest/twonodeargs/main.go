// Command twonodeargs prints, one per line, the mpirun arguments that place
// a job of NP ranks on the two nodes simulated on this machine (mpitest's
// TwoNodes), so that scripts launch jobs exactly as the tests do; with
// -rankfile FILE, each rank bound to a core of its own through a rankfile
// written to FILE (mpitest.TwoNodesBound), as the benchmarks run:
//
//	go run ./internal/mpitest/twonodeargs [-rankfile FILE] NP
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/goga-hpc/goga/internal/mpitest"
)

func main() {
	rankfile := flag.String("rankfile", "", "bind each rank to a core of its own through a rankfile written here")
	flag.Parse()
	np, err := strconv.Atoi(flag.Arg(0))
	if flag.NArg() != 1 || err != nil || np < 1 {
		fmt.Fprintln(os.Stderr, "usage: twonodeargs [-rankfile FILE] NP")
		os.Exit(2)
	}
	if why := mpitest.TwoNodesUsable(); why != "" {
		fmt.Fprintln(os.Stderr, "twonodeargs: two simulated nodes:", why)
		os.Exit(1)
	}
	args := mpitest.TwoNodes.Args(np)
	if *rankfile != "" {
		if args, err = mpitest.TwoNodesBound(np, *rankfile); err != nil {
			fmt.Fprintln(os.Stderr, "twonodeargs:", err)
			os.Exit(1)
		}
	}
	for _, a := range args {
		fmt.Println(a)
	}
}
