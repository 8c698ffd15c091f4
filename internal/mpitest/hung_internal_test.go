package mpitest

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestWatchLauncher: a launcher that outlives its only rank is killed once
// the grace has passed, and one that ends with its rank is left alone.
func TestWatchLauncher(t *testing.T) {
	if Child() {
		t.Skip("parent only")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep here")
	}
	// The shell stays behind its rank (sleep), reading a stdin that stays
	// open.
	cmd := exec.Command("sh", "-c", sleep+" 0.5; read x")
	if _, err := cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	giveUp := make(chan struct{})
	time.AfterFunc(10*time.Second, func() { close(giveUp) })
	killed := watchLauncher(cmd.Process.Pid, sleep, time.Second, giveUp)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // if the watch did not
	err = cmd.Wait()
	if d := time.Since(start); !killed || d < time.Second || d > 10*time.Second {
		t.Fatalf("a launcher outliving its rank: killed %v after %v (%v), want killed after 1.5-10 s", killed, d, err)
	}

	cmd = exec.Command("sh", "-c", sleep+" 0.5; true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	go func() { cmd.Wait(); close(stop) }()
	if watchLauncher(cmd.Process.Pid, sleep, time.Second, stop) {
		t.Fatal("a launcher that ended with its rank was killed")
	}
}
