#include "textflag.h"

// Accumulate kernels, dst[i] += a*src[i], in AVX2: four vectors a turn,
// then one, then single elements. Multiply and add stay two roundings (no
// FMA), as Go's loop and the C kernels compute them, so every path gives
// the same bits. One macro makes both element types' kernels: BCAST, MUL,
// ADD and MOVU are the vector instructions, MULS, ADDS and MOVS the scalar
// ones, W the elements in a vector and SIZE an element's bytes. Labels are
// local to each TEXT block.
#define ACC(BCAST, MUL, ADD, MOVU, MULS, ADDS, MOVS, W, SIZE) \
	MOVQ  dst+0(FP), DI              \
	MOVQ  src+8(FP), SI              \
	MOVQ  n+16(FP), CX               \
	BCAST a+24(FP), Y0               \
quad:                                \
	CMPQ CX, $(4*W)                  \
	JLT  one                         \
	MUL  (SI), Y0, Y1                \
	MUL  32(SI), Y0, Y2              \
	MUL  64(SI), Y0, Y3              \
	MUL  96(SI), Y0, Y4              \
	ADD  (DI), Y1, Y1                \
	ADD  32(DI), Y2, Y2              \
	ADD  64(DI), Y3, Y3              \
	ADD  96(DI), Y4, Y4              \
	MOVU Y1, (DI)                    \
	MOVU Y2, 32(DI)                  \
	MOVU Y3, 64(DI)                  \
	MOVU Y4, 96(DI)                  \
	ADDQ $128, SI                    \
	ADDQ $128, DI                    \
	SUBQ $(4*W), CX                  \
	JMP  quad                        \
one:                                 \
	CMPQ CX, $W                      \
	JLT  tail                        \
	MUL  (SI), Y0, Y1                \
	ADD  (DI), Y1, Y1                \
	MOVU Y1, (DI)                    \
	ADDQ $32, SI                     \
	ADDQ $32, DI                     \
	SUBQ $W, CX                      \
	JMP  one                         \
tail:                                \
	TESTQ CX, CX                     \
	JEQ   done                       \
	MULS  (SI), X0, X1               \
	ADDS  (DI), X1, X1               \
	MOVS  X1, (DI)                   \
	ADDQ  $SIZE, SI                  \
	ADDQ  $SIZE, DI                  \
	DECQ  CX                         \
	JMP   tail                       \
done:                                \
	VZEROUPPER                       \
	RET

// func accFloat64AVX2(dst, src *float64, n int, a float64)
TEXT ·accFloat64AVX2(SB), NOSPLIT, $0-32
	ACC(VBROADCASTSD, VMULPD, VADDPD, VMOVUPD, VMULSD, VADDSD, VMOVSD, 4, 8)

// func accFloat32AVX2(dst, src *float32, n int, a float32)
TEXT ·accFloat32AVX2(SB), NOSPLIT, $0-28
	ACC(VBROADCASTSS, VMULPS, VADDPS, VMOVUPS, VMULSS, VADDSS, VMOVSS, 8, 4)
