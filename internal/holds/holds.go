// Package holds keeps the global arrays that work in the background is
// using (a dra transfer between its start and its Wait), so that ga
// refuses to destroy them, or to end, while it runs: the work would
// otherwise read or write memory that is gone. A key is the array's
// handle on this process; every process holds its own.
package holds

import "sync"

var (
	mu   sync.Mutex
	held = map[any][]string{} // key -> why, one entry per hold
)

// Hold keeps key held, for the reason why, until release is called
// (calling it again does nothing).
func Hold(key any, why string) (release func()) {
	mu.Lock()
	held[key] = append(held[key], why)
	mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			ws := held[key]
			for i, w := range ws {
				if w == why {
					ws = append(ws[:i], ws[i+1:]...)
					break
				}
			}
			if len(ws) == 0 {
				delete(held, key)
			} else {
				held[key] = ws
			}
		})
	}
}

// Why returns the reason key is held for (the oldest hold's), or "".
func Why(key any) string {
	mu.Lock()
	defer mu.Unlock()
	if ws := held[key]; len(ws) > 0 {
		return ws[0]
	}
	return ""
}

// Any returns the reason of some hold, or "" when nothing is held.
func Any() string {
	mu.Lock()
	defer mu.Unlock()
	for _, ws := range held {
		return ws[0]
	}
	return ""
}
