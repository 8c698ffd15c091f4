// Command twonodeargs prints, one per line, the mpirun arguments that place
// a job of NP ranks on the two nodes simulated on this machine (mpitest's
// TwoNodes), so that scripts launch jobs exactly as the tests do; with
// -rankfile FILE, each rank bound to a core of its own through a rankfile
// written to FILE (mpitest.TwoNodesBound), as the benchmarks run; with
// -placement, the ranks placed on up to four simulated nodes as the
// four-node tests place them (mpitest.Placement, such as 3+2+2+1 or 4x4):
//
//	go run ./internal/mpitest/twonodeargs [-rankfile FILE] NP
//	go run ./internal/mpitest/twonodeargs -placement 3+2+2+1
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
	placement := flag.String("placement", "", "place the ranks on simulated nodes: 3+2+2+1, 4x4")
	flag.Parse()
	if *placement != "" {
		if flag.NArg() != 0 || *rankfile != "" {
			fmt.Fprintln(os.Stderr, "usage: twonodeargs -placement COUNTS (no NP, no -rankfile)")
			os.Exit(2)
		}
		p, err := mpitest.ParsePlacement(*placement)
		if err != nil {
			fmt.Fprintln(os.Stderr, "twonodeargs:", err)
			os.Exit(2)
		}
		if why := p.Usable(); why != "" {
			fmt.Fprintf(os.Stderr, "twonodeargs: simulated nodes %v: %s\n", p, why)
			os.Exit(1)
		}
		printArgs(p.Args())
		return
	}
	np, err := strconv.Atoi(flag.Arg(0))
	if flag.NArg() != 1 || err != nil || np < 1 {
		fmt.Fprintln(os.Stderr, "usage: twonodeargs [-rankfile FILE] NP | -placement COUNTS")
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
	printArgs(args)
}

func printArgs(args []string) {
	for _, a := range args {
		fmt.Println(a)
	}
}
