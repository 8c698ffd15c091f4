#!/usr/bin/env python3
"""flood.py: a stranger that floods a job's UDP doorbells while it runs.

    scripts/flood.py [--rate N] [--target job|decoy] --name PROG -- COMMAND...

Runs COMMAND and, while it runs, sends N datagrams a second (default 10000)
of random bytes, as long as a doorbell's ring, spread over the UDP ports
that processes named PROG have open (found with `ss`), or, with --target decoy, to a
socket of its own that nobody reads: the same sending, with no job
receiving it, so that comparing the two prices the job's own cost of a flood
apart from the CPU the flooder takes. It prints what it sent to stderr and
exits with COMMAND's status. make bench-flood uses it (scripts/bench-flood.sh).
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import threading
import time


def job_ports(name):
    """The (host, port) of every UDP socket that processes named name hold."""
    out = subprocess.run(["ss", "-H", "-u", "-a", "-n", "-p"], capture_output=True, text=True).stdout
    ports = set()
    for line in out.splitlines():
        if f'(("{name}"' not in line:
            continue
        m = re.search(r"\s(\d+\.\d+\.\d+\.\d+):(\d+)\s", line)
        if m:
            ports.add((m.group(1), int(m.group(2))))
    return sorted(ports)


def flood(args, stop, sent):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    decoy = None
    if args.target == "decoy":
        decoy = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        decoy.bind(("127.0.0.1", 0))
    targets, found = [], 0.0
    period = 1.0 / args.rate
    batch = max(1, args.rate // 1000)  # sleep about every millisecond
    next_t = time.monotonic()
    while not stop.is_set():
        now = time.monotonic()
        if decoy is not None:
            targets = [decoy.getsockname()]
        elif now - found > 0.05:  # the job opens its doorbells at Init
            targets, found = job_ports(args.name) or targets, now
        if not targets:
            time.sleep(0.005)
            next_t = time.monotonic()
            continue
        for i in range(batch):
            try:
                sock.sendto(os.urandom(28), targets[i % len(targets)])
                sent[0] += 1
            except OSError:
                pass
        next_t += batch * period
        delay = next_t - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    sent[1] = len(targets)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rate", type=int, default=10000)
    p.add_argument("--target", choices=["job", "decoy"], default="job")
    p.add_argument("--name", required=True)
    p.add_argument("command", nargs=argparse.REMAINDER)
    args = p.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    stop, sent = threading.Event(), [0, 0]
    th = threading.Thread(target=flood, args=(args, stop, sent))
    th.start()
    try:
        rc = subprocess.run(cmd).returncode
    finally:
        stop.set()
        th.join()
    print(f"# flood: {sent[0]} datagrams to {sent[1]} ports ({args.target})", file=sys.stderr)
    sys.exit(rc)


if __name__ == "__main__":
    main()
