package mpi

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// tagStderr prefixes every line this process writes to standard error with
// its rank, "[rank 2] ", when the job has several ranks: a Go panic or fatal
// error is printed by the runtime itself, with no hook to name the rank, and
// without the tag the reports of several ranks cannot be told apart. The
// prefixing runs in a small separate process (sed) that reads a pipe in place
// of file descriptor 2, so a crashing rank's last words still get through:
// the pipe outlives the process that wrote them. GOGA_TAG_STDERR=0 turns it
// off; without sed it is off.
func tagStderr(rank, size int) {
	if size < 2 || os.Getenv("GOGA_TAG_STDERR") == "0" {
		return
	}
	sed, err := exec.LookPath("sed")
	if err != nil {
		return
	}
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	defer r.Close()
	defer w.Close()
	orig, err := syscall.Dup(2)
	if err != nil {
		return
	}
	out := os.NewFile(uintptr(orig), "stderr")
	defer out.Close()
	cmd := exec.Command(sed, "-u", "s/^/[rank "+strconv.Itoa(rank)+"] /")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, out, out
	// Its own process group: a terminal's Ctrl-C or mpirun's signals to the
	// rank do not end it before it has passed the rank's last lines on.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if cmd.Start() != nil {
		return
	}
	if syscall.Dup3(int(w.Fd()), 2, 0) != nil {
		cmd.Process.Kill()
		return
	}
	// sed ends when every copy of the pipe's write end is closed: when this
	// process ends. Nothing waits for it; it is reaped by whoever inherits it.
	go cmd.Wait()
}
