// kernels.h: dst += scale * src loops for one-sided accumulate, compiled with
// -O3 so that GCC vectorizes them (about 3x Go's scalar loop here), and cloned
// for AVX2 and AVX-512, picked at load time by the CPU (as Open MPI's op/avx
// does for MPI_Accumulate). One macro makes the function for each element
// type; complex products are written out (as Go computes them) so that GCC
// does not call __muldc3.
#ifndef GOGA_KERNELS_H
#define GOGA_KERNELS_H

#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GOGA_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define GOGA_CLONES
#endif

#define GOGA_ACC_REAL(name, T)                                                   \
	GOGA_CLONES static void name(void *restrict dst, const void *restrict src, long n, T a) { \
		T *restrict d = dst;                                                     \
		const T *restrict s = src;                                               \
		if (a == 1) {                                                            \
			for (long i = 0; i < n; i++) d[i] += s[i];                           \
		} else {                                                                 \
			for (long i = 0; i < n; i++) d[i] += a * s[i];                       \
		}                                                                        \
	}

#define GOGA_ACC_COMPLEX(name, T)                                                          \
	GOGA_CLONES static void name(void *restrict dst, const void *restrict src, long n, T ar, T ai) { \
		T *restrict d = dst;                                                               \
		const T *restrict s = src;                                                         \
		for (long i = 0; i < n; i++) {                                                     \
			T sr = s[2 * i], si = s[2 * i + 1];                                            \
			d[2 * i] += ar * sr - ai * si;                                                 \
			d[2 * i + 1] += ar * si + ai * sr;                                             \
		}                                                                                  \
	}

GOGA_ACC_REAL(goga_acc_int32, int32_t)
GOGA_ACC_REAL(goga_acc_int64, int64_t)
GOGA_ACC_REAL(goga_acc_float32, float)
GOGA_ACC_REAL(goga_acc_float64, double)
GOGA_ACC_COMPLEX(goga_acc_complex64, float)
GOGA_ACC_COMPLEX(goga_acc_complex128, double)

#endif
