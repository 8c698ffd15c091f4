// kernels.h: dst += scale * src loops for one-sided accumulate, compiled with
// -O3 so that GCC vectorizes them (about 3x Go's scalar loop here), and cloned
// for AVX2 (and, where it pays, AVX-512), picked at load time by the CPU (as
// Open MPI's op/avx does for MPI_Accumulate). One macro makes the function for
// each element type; complex products are written out (as Go computes them) so
// that GCC does not call __muldc3. The accumulates take their addresses as
// integers (see cgo.AccFloat64).
//
// The loops that stream memory (accumulate, axpby, mul, dot, argmax) have no
// AVX-512 clone: on the AMD EPYC VM of 2026-11-26 (AVX-512 capable), one
// process, its AVX-512 code was 8-15% slower than AVX2 on arrays past the L2
// cache (8 MiB accumulate 257-264 against 216-233 µs; 64 MiB axpby 7.7
// against 7.2 ms) and level with it below. The norms, which do more per
// element, keep theirs: 289 against 417 µs for 8 MiB.
//
// Where the data outgrow the last-level cache, c = alpha*a + beta*b,
// c = a*b and large copies have variants that write with non-temporal
// stores (goga_*_nt, AVX2 intrinsics); ga and armci choose them by size.
#ifndef GOGA_KERNELS_H
#define GOGA_KERNELS_H

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GOGA_CLONES __attribute__((target_clones("avx2", "default")))
#define GOGA_CLONES_WIDE __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define GOGA_CLONES
#define GOGA_CLONES_WIDE
#endif

#define GOGA_ACC_REAL(name, T)                                                   \
	GOGA_CLONES static void name(uintptr_t dst, uintptr_t src, long n, T a) { \
		T *restrict d = (T *)dst;                                                \
		const T *restrict s = (const T *)src;                                    \
		if (a == 1) {                                                            \
			for (long i = 0; i < n; i++) d[i] += s[i];                           \
		} else {                                                                 \
			for (long i = 0; i < n; i++) d[i] += a * s[i];                       \
		}                                                                        \
	}

#define GOGA_ACC_COMPLEX(name, T)                                                          \
	GOGA_CLONES static void name(uintptr_t dst, uintptr_t src, long n, T ar, T ai) {  \
		T *restrict d = (T *)dst;                                                          \
		const T *restrict s = (const T *)src;                                              \
		for (long i = 0; i < n; i++) {                                                     \
			T sr = s[2 * i], si = s[2 * i + 1];                                            \
			d[2 * i] += ar * sr - ai * si;                                                 \
			d[2 * i + 1] += ar * si + ai * sr;                                             \
		}                                                                                  \
	}

// Element-wise kernels for the collectives on global arrays' local runs:
// c = alpha*a + beta*b, c = a*b, and the dot product. c may be a or b itself
// (GCC checks for overlap at run time and vectorizes when there is none or
// it is exact). The dot product keeps eight partial sums, which GCC turns
// into vector lanes without -ffast-math's license to reorder one sum.
#define GOGA_ELEMWISE(suffix, T)                                                          \
	GOGA_CLONES static void goga_axpby_##suffix(void *c, const void *a, const void *b, long n, T alpha, T beta) { \
		T *d = c;                                                                         \
		const T *x = a, *y = b;                                                           \
		for (long i = 0; i < n; i++) d[i] = alpha * x[i] + beta * y[i];                   \
	}                                                                                     \
	GOGA_CLONES static void goga_mul_##suffix(void *c, const void *a, const void *b, long n) { \
		T *d = c;                                                                         \
		const T *x = a, *y = b;                                                           \
		for (long i = 0; i < n; i++) d[i] = x[i] * y[i];                                  \
	}                                                                                     \
	GOGA_CLONES static T goga_dot_##suffix(const void *a, const void *b, long n) {        \
		const T *restrict x = a, *restrict y = b;                                         \
		T s[8] = {0};                                                                     \
		long i = 0;                                                                       \
		for (; i + 8 <= n; i += 8)                                                        \
			for (int k = 0; k < 8; k++) s[k] += x[i + k] * y[i + k];                      \
		T t = 0;                                                                          \
		for (; i < n; i++) t += x[i] * y[i];                                              \
		return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7])) + t;      \
	}

// The same c = alpha*a + beta*b and c = a*b writing c with non-temporal
// stores, for runs whose arrays are far larger than the last-level cache:
// c is then not read into the cache before it is written, and not kept
// there. On the AMD EPYC VM of 2026-11-27, two processes at once each
// multiplying arrays of 16 MiB took 870-1060 µs a pass against 1400-1650 on
// huge pages (1400-1540 against 1920-2050 on 4 KiB pages); with 4 MiB
// arrays, 172-177 against 234-260; with 2 MiB arrays, where all six fit the
// 32 MiB cache, they lost: 129-136 against 80-95 (arrays of constants; on
// random values, which set ga's threshold, see its streamAbove). The loops
// are written with AVX2 intrinsics (GCC has no portable non-temporal
// store): a CPU without AVX2 runs the ordinary kernels instead
// (goga_avx2).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>

static int goga_avx2(void) { return __builtin_cpu_supports("avx2"); }

// The scalar head runs until c is aligned for the vector stores, and the
// tail after the last whole vector.
#define GOGA_STREAMING(suffix, T, V, W, VS, LOAD, MUL, ADD, SET1, STREAM)                    \
	__attribute__((target("avx2"))) static void goga_axpby_nt_##suffix(void *c, const void *a, const void *b, long n, T alpha, T beta) { \
		T *d = c;                                                                             \
		const T *x = a, *y = b;                                                               \
		long i = 0;                                                                           \
		for (; i < n && ((uintptr_t)(d + i) & (VS - 1)); i++) d[i] = alpha * x[i] + beta * y[i]; \
		V va = SET1(alpha), vb = SET1(beta);                                                  \
		for (; i + W <= n; i += W) STREAM(d + i, ADD(MUL(va, LOAD(x + i)), MUL(vb, LOAD(y + i)))); \
		for (; i < n; i++) d[i] = alpha * x[i] + beta * y[i];                                 \
		_mm_sfence();                                                                         \
	}                                                                                         \
	__attribute__((target("avx2"))) static void goga_mul_nt_##suffix(void *c, const void *a, const void *b, long n) { \
		T *d = c;                                                                             \
		const T *x = a, *y = b;                                                               \
		long i = 0;                                                                           \
		for (; i < n && ((uintptr_t)(d + i) & (VS - 1)); i++) d[i] = x[i] * y[i];              \
		for (; i + W <= n; i += W) STREAM(d + i, MUL(LOAD(x + i), LOAD(y + i)));              \
		for (; i < n; i++) d[i] = x[i] * y[i];                                                \
		_mm_sfence();                                                                         \
	}

GOGA_STREAMING(float64, double, __m256d, 4, 32, _mm256_loadu_pd, _mm256_mul_pd, _mm256_add_pd, _mm256_set1_pd, _mm256_stream_pd)
GOGA_STREAMING(float32, float, __m256, 8, 32, _mm256_loadu_ps, _mm256_mul_ps, _mm256_add_ps, _mm256_set1_ps, _mm256_stream_ps)

// memcpy with non-temporal stores, for copies whose source and destination
// together outgrow the last-level cache (armci's copy.go): 128 bytes a step
// between a head that aligns dst and a tail, each copied by memcpy.
__attribute__((target("avx2"))) static void goga_copy_nt(uintptr_t dst, uintptr_t src, long n) {
	char *d = (char *)dst;
	const char *s = (const char *)src;
	long head = (32 - (long)(dst & 31)) & 31;
	if (head > n) head = n;
	memcpy(d, s, head);
	long i = head;
	for (; i + 128 <= n; i += 128) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
		__m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
		__m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
		_mm256_stream_si256((__m256i *)(d + i), a);
		_mm256_stream_si256((__m256i *)(d + i + 32), b);
		_mm256_stream_si256((__m256i *)(d + i + 64), c);
		_mm256_stream_si256((__m256i *)(d + i + 96), e);
	}
	memcpy(d + i, s + i, n - i);
	_mm_sfence();
}
#else
static int goga_avx2(void) { return 0; }
static void goga_copy_nt(uintptr_t dst, uintptr_t src, long n) { memcpy((void *)dst, (const void *)src, n); }
#define GOGA_STREAMING_NONE(suffix, T)                                                         \
	static void goga_axpby_nt_##suffix(void *c, const void *a, const void *b, long n, T alpha, T beta) { goga_axpby_##suffix(c, a, b, n, alpha, beta); } \
	static void goga_mul_nt_##suffix(void *c, const void *a, const void *b, long n) { goga_mul_##suffix(c, a, b, n); }
#endif

// The index of the first largest (smallest, with the comparison <) element
// in eight lanes, each keeping its own best and where it was, so that GCC
// can vectorize the comparison with masked blends; lanes' ties go to the
// lower index. A NaN never wins; -1 means no element beat -Inf (+Inf).
#define GOGA_BEST(name, T, CMP, INIT)                                                    \
	GOGA_CLONES static long name(const void *a, long n) {                               \
		const T *x = a;                                                                 \
		T m[8];                                                                         \
		long k[8];                                                                      \
		for (int l = 0; l < 8; l++) m[l] = INIT, k[l] = -1;                             \
		long i = 0;                                                                     \
		for (; i + 8 <= n; i += 8)                                                      \
			for (int l = 0; l < 8; l++)                                                 \
				if (x[i + l] CMP m[l]) m[l] = x[i + l], k[l] = i + l;                   \
		for (; i < n; i++)                                                              \
			if (x[i] CMP m[0] || (x[i] == m[0] && k[0] >= 0 && i < k[0])) m[0] = x[i], k[0] = i; \
		long best = -1;                                                                 \
		T bm = INIT;                                                                    \
		for (int l = 0; l < 8; l++)                                                     \
			if (k[l] >= 0 && (best < 0 || m[l] CMP bm || (m[l] == bm && k[l] < best)))  \
				bm = m[l], best = k[l];                                                 \
		return best;                                                                    \
	}

// The sum and the maximum of |x|, in eight double lanes each (float32 sums
// in double too, as the Go loop does); NaN anywhere makes both NaN.
#define GOGA_NORMS(name, T, ABS)                                                     \
	GOGA_CLONES_WIDE static void name(const void *a, long n, double *sum, double *most) { \
		const T *x = a;                                                             \
		double s[8] = {0}, m[8] = {0};                                              \
		long i = 0;                                                                 \
		for (; i + 8 <= n; i += 8)                                                  \
			for (int l = 0; l < 8; l++) {                                           \
				double v = ABS(x[i + l]);                                           \
				s[l] += v;                                                          \
				m[l] = v > m[l] ? v : m[l];                                         \
			}                                                                       \
		double t = 0, mt = 0;                                                       \
		for (; i < n; i++) {                                                        \
			double v = ABS(x[i]);                                                   \
			t += v;                                                                 \
			mt = v > mt ? v : mt;                                                   \
		}                                                                           \
		for (int l = 0; l < 8; l++) {                                               \
			t += s[l];                                                              \
			mt = m[l] > mt ? m[l] : mt;                                             \
		}                                                                           \
		if (t != t) mt = t;                                                         \
		*sum = t, *most = mt;                                                       \
	}

GOGA_NORMS(goga_norms_float64, double, __builtin_fabs)
GOGA_NORMS(goga_norms_float32, float, __builtin_fabsf)

GOGA_BEST(goga_argmax_float64, double, >, -__builtin_inf())
GOGA_BEST(goga_argmin_float64, double, <, __builtin_inf())
GOGA_BEST(goga_argmax_float32, float, >, -__builtin_inff())
GOGA_BEST(goga_argmin_float32, float, <, __builtin_inff())

GOGA_ELEMWISE(float32, float)
GOGA_ELEMWISE(float64, double)
#ifdef GOGA_STREAMING_NONE
GOGA_STREAMING_NONE(float32, float)
GOGA_STREAMING_NONE(float64, double)
#endif

GOGA_ACC_REAL(goga_acc_int32, int32_t)
GOGA_ACC_REAL(goga_acc_int64, int64_t)
GOGA_ACC_REAL(goga_acc_float32, float)
GOGA_ACC_REAL(goga_acc_float64, double)
GOGA_ACC_COMPLEX(goga_acc_complex64, float)
GOGA_ACC_COMPLEX(goga_acc_complex128, double)

#endif
