/* A real MPI_Alltoall client: a distributed 2-D complex FFT
 * with FFTW's MPI interface. The plans use FFTW_MPI_TRANSPOSED_OUT /
 * FFTW_MPI_TRANSPOSED_IN and FFTW_DESTROY_INPUT on an N0 x N1 array whose
 * dimensions every rank count in {1, 2, 4, 8} divides, so FFTW's global
 * transposes are its "transpose-alltoall" solver, i.e. MPI_Alltoall calls
 * (intercepted when libtotex_pmpi.so is preloaded). The client counts nothing
 * itself: fftw_test.sh takes the drop-in's TOTEX_VERBOSE=1 line as evidence.
 *
 * usage: fftw_client OUTFILE
 * Deterministic input; forward transform, then backward (round trip). Rank 0
 * writes to OUTFILE every output value of the forward transform (in the
 * transposed layout, gathered in rank order) as exact hexadecimal floats, and
 * the round trip's maximal error; it checks the forward output against a
 * serial FFTW transform and the round trip against the input (exit 1 if off).
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <fftw3-mpi.h>

#define N0 64
#define N1 48

static double complex input_value(ptrdiff_t i, ptrdiff_t j)
{
    /* deterministic, not symmetric, exactly representable */
    return (double)((i * 37 + j * 11) % 29 - 14) / 8.0 + I * (double)((i * 5 + j * j * 3) % 23 - 11) / 16.0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    fftw_mpi_init();
    int rank, size, fail = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: %s OUTFILE\n", argv[0]);
        MPI_Finalize();
        return 2;
    }

    ptrdiff_t local_n0, local_0_start, local_n1, local_1_start;
    ptrdiff_t alloc = fftw_mpi_local_size_2d_transposed(N0, N1, MPI_COMM_WORLD, &local_n0, &local_0_start, &local_n1,
                                                        &local_1_start);
    fftw_complex *in = fftw_alloc_complex((size_t)alloc), *out = fftw_alloc_complex((size_t)alloc);
    fftw_complex *back = fftw_alloc_complex((size_t)alloc);
    fftw_plan fwd = fftw_mpi_plan_dft_2d(N0, N1, in, out, MPI_COMM_WORLD, FFTW_FORWARD,
                                         FFTW_ESTIMATE | FFTW_DESTROY_INPUT | FFTW_MPI_TRANSPOSED_OUT);
    fftw_plan bwd = fftw_mpi_plan_dft_2d(N0, N1, out, back, MPI_COMM_WORLD, FFTW_BACKWARD,
                                         FFTW_ESTIMATE | FFTW_DESTROY_INPUT | FFTW_MPI_TRANSPOSED_IN);
    if (!fwd || !bwd) {
        fprintf(stderr, "fftw_client: rank %d: planning failed\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* initialise after planning (FFTW_ESTIMATE does not touch the arrays, but be safe) */
    for (ptrdiff_t i = 0; i < local_n0; i++)
        for (ptrdiff_t j = 0; j < N1; j++)
            in[i * N1 + j] = input_value(local_0_start + i, j);

    fftw_execute(fwd); /* out: local_n1 rows of the transposed N1 x N0 result */
    fftw_complex *result = fftw_alloc_complex((size_t)(local_n1 > 0 ? local_n1 * N0 : 1));
    for (ptrdiff_t k = 0; k < local_n1 * N0; k++)
        result[k] = out[k];
    fftw_execute(bwd); /* destroys out; back: local_n0 rows of N0 x N1, scaled by N0*N1 */
    double rt_err = 0;
    for (ptrdiff_t i = 0; i < local_n0; i++)
        for (ptrdiff_t j = 0; j < N1; j++) {
            double e = cabs(back[i * N1 + j] / (N0 * N1) - input_value(local_0_start + i, j));
            if (e > rt_err)
                rt_err = e;
        }
    double rt_max = 0;
    MPI_Reduce(&rt_err, &rt_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* gather the forward result to rank 0 in rank order (point to point: no Alltoall here) */
    if (rank == 0) {
        fftw_complex *all = fftw_alloc_complex((size_t)N0 * N1);
        for (ptrdiff_t k = 0; k < local_n1 * N0; k++)
            all[local_1_start * N0 + k] = result[k];
        for (int r = 1; r < size; r++) {
            long long hdr[2];
            MPI_Recv(hdr, 2, MPI_LONG_LONG, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (hdr[1])
                MPI_Recv(all + hdr[0] * N0, (int)(2 * hdr[1] * N0), MPI_DOUBLE, r, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        /* serial reference */
        fftw_complex *sin_ = fftw_alloc_complex((size_t)N0 * N1), *sout = fftw_alloc_complex((size_t)N0 * N1);
        fftw_plan sp = fftw_plan_dft_2d(N0, N1, sin_, sout, FFTW_FORWARD, FFTW_ESTIMATE);
        for (ptrdiff_t i = 0; i < N0; i++)
            for (ptrdiff_t j = 0; j < N1; j++)
                sin_[i * N1 + j] = input_value(i, j);
        fftw_execute(sp);
        double ref_err = 0, sum_re = 0, sum_im = 0, sum_abs = 0;
        for (ptrdiff_t j = 0; j < N1; j++)
            for (ptrdiff_t i = 0; i < N0; i++) {
                double complex v = all[j * N0 + i]; /* transposed layout: (j, i) */
                double e = cabs(v - sout[i * N1 + j]);
                if (e > ref_err)
                    ref_err = e;
                sum_re += creal(v) * (double)(1 + (i * N1 + j) % 7);
                sum_im += cimag(v) * (double)(1 + (i * N1 + j) % 5);
                sum_abs += cabs(v);
            }
        FILE *f = fopen(argv[1], "w");
        if (!f) {
            perror(argv[1]);
            fail = 1;
        } else {
            fprintf(f, "fftw_client %dx%d complex forward FFT, transposed output\n", N0, N1);
            fprintf(f, "checksum %a %a %a\n", sum_re, sum_im, sum_abs);
            for (ptrdiff_t k = 0; k < (ptrdiff_t)N0 * N1; k++)
                fprintf(f, "%a %a\n", creal(all[k]), cimag(all[k]));
            fclose(f);
        }
        printf("fftw_client: %d ranks, %dx%d: |mpi - serial| max %.3g, round trip max error %.3g\n", size, N0, N1,
               ref_err, rt_max);
        if (ref_err > 1e-9 || rt_max > 1e-12) {
            fprintf(stderr, "fftw_client: result off (serial %.3g, round trip %.3g)\n", ref_err, rt_max);
            fail = 1;
        }
        fftw_destroy_plan(sp);
        fftw_free(sin_);
        fftw_free(sout);
        fftw_free(all);
    } else {
        long long hdr[2] = {local_1_start, local_n1};
        MPI_Send(hdr, 2, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD);
        if (local_n1)
            MPI_Send(result, (int)(2 * local_n1 * N0), MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Bcast(&fail, 1, MPI_INT, 0, MPI_COMM_WORLD);
    fftw_destroy_plan(fwd);
    fftw_destroy_plan(bwd);
    fftw_free(in);
    fftw_free(out);
    fftw_free(back);
    fftw_free(result);
    fftw_mpi_cleanup();
    MPI_Finalize();
    return fail;
}
