package armci

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// LastLevelCache returns the size in bytes of CPU 0's largest cache level
// (Linux's sysfs, read once), or 0 if it cannot tell. The kernels that
// stream (write with non-temporal stores) decide from it: armci's large
// copies (copy.go), ga's element-wise operations. The CPU's own report
// (cpuid, which glibc reads to choose its memcpy) can be wrong in a VM: it
// gave 320 MiB for a 32 MiB L3 on a 2-core AMD EPYC VM, where
// sysfs gave 32 MiB.
var LastLevelCache = sync.OnceValue(lastLevelCache)

func lastLevelCache() int {
	best, size := 0, 0
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		level, err1 := os.ReadFile(filepath.Join(d, "level"))
		text, err2 := os.ReadFile(filepath.Join(d, "size"))
		l, err3 := strconv.Atoi(strings.TrimSpace(string(level)))
		if err1 != nil || err2 != nil || err3 != nil || l < best {
			continue
		}
		if n, ok := cacheBytes(strings.TrimSpace(string(text))); ok {
			best, size = l, n
		}
	}
	return size
}

// cacheBytes parses sysfs's cache size, as "32768K".
func cacheBytes(s string) (int, bool) {
	unit := 1
	switch {
	case strings.HasSuffix(s, "K"):
		unit, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		unit, s = 1<<20, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	return n * unit, err == nil && n > 0
}
