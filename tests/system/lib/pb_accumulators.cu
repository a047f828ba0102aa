// The PolyBench-GPU 1.0 kernels that accumulate in global memory, as their
// CUDA sources write them (docs/workloads/polybench.md), for
// tests/system/pb_accumulators.sh: clang compiles them for NVPTX and the
// test reads which global loads and stores stay in each loop. The CUDA
// headers are not used (clang -nocudainc): the thread and block indices
// are clang's NVPTX builtins, and extern "C" keeps gmsim's kernel names.
#define __global__ __attribute__((global))
#define TX __nvvm_read_ptx_sreg_tid_x()
#define TY __nvvm_read_ptx_sreg_tid_y()
#define BX __nvvm_read_ptx_sreg_ctaid_x()
#define BY __nvvm_read_ptx_sreg_ctaid_y()
#define NTX __nvvm_read_ptx_sreg_ntid_x()
#define NTY __nvvm_read_ptx_sreg_ntid_y()
#define ALPHA 32412.0f
#define BETA 2123.0f
typedef float DATA_TYPE;

extern "C" {

__global__ void gemm_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c, int NI, int NJ, int NK)
{
    int j = BX * NTX + TX, i = BY * NTY + TY;
    if (i < NI && j < NJ) {
        c[i * NJ + j] *= BETA;
        for (int k = 0; k < NK; k++)
            c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
    }
}

__global__ void mm2_kernel1(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, int NI, int NJ, int NK)
{
    int j = BX * NTX + TX, i = BY * NTY + TY;
    if (i < NI && j < NJ)
        for (int k = 0; k < NK; k++)
            C[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
}

__global__ void syrk_kernel(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *c,
                            int N, int M)
{
    int j = BX * NTX + TX, i = BY * NTY + TY;
    if (i < N && j < N) {
        c[i * N + j] *= beta;
        for (int k = 0; k < M; k++)
            c[i * N + j] += alpha * a[i * M + k] * a[j * M + k];
    }
}

__global__ void bicg_kernel1(DATA_TYPE *A, DATA_TYPE *r, DATA_TYPE *s, int NX, int NY)
{
    int j = BX * NTX + TX;
    if (j < NY) {
        s[j] = 0.0f;
        for (int i = 0; i < NX; i++)
            s[j] += A[i * NY + j] * r[i];
    }
}

__global__ void mvt_kernel1(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *y_1, int N)
{
    int i = BX * NTX + TX;
    if (i < N)
        for (int j = 0; j < N; j++)
            x1[i] += a[i * N + j] * y_1[j];
}

__global__ void atax_kernel2(DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp, int NX, int NY)
{
    int j = BX * NTX + TX;
    if (j < NY)
        for (int i = 0; i < NX; i++)
            y[j] += A[i * NY + j] * tmp[i];
}

__global__ void doitgen_kernel1(int nr, int nq, int np, DATA_TYPE *sum, DATA_TYPE *A,
                                DATA_TYPE *C4, int r)
{
    int p = BX * NTX + TX, q = BY * NTY + TY;
    if (p < np && q < nq) {
        sum[r * (nq * np) + q * np + p] = 0.0f;
        for (int s = 0; s < np; s++)
            sum[r * (nq * np) + q * np + p] =
                sum[r * (nq * np) + q * np + p] + A[r * (nq * np) + q * np + s] * C4[s * np + p];
    }
}

}
