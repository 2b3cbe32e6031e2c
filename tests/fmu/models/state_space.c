/* A linear state-space model with array variables, as the Reference FMUs' StateSpace
   (FMI 3.0 only): x' = A x, y = x, with x, der(x), y arrays of n = 3 elements (n a
   structural parameter their Dimension names) and A a 3 x 3 parameter array,
   upper triangular: A = [-1 1 0; 0 -2 1; 0 0 -3], x(0) = (1, 1, 1), so that
   x3 = e^-3t, x2 = 2 e^-2t - e^-3t, x1 = 2.5 e^-t - 2 e^-2t + 0.5 e^-3t. */
#include "../framework/model_core.h"

enum { N, A, X = A + 9, DER_X = X + 3, Y = DER_X + 3, N_REALS = Y + 3 };

static const unsigned states[] = {X, X + 1, X + 2};
static const unsigned derivatives[] = {DER_X, DER_X + 1, DER_X + 2};
static const unsigned sizes[N_REALS] = {[N] = 1, [A] = 9, [X] = 3, [DER_X] = 3, [Y] = 3};

static void start(double* r) {
  static const double a[9] = {-1, 1, 0, 0, -2, 1, 0, 0, -3};
  r[N] = 3;
  for (int i = 0; i < 9; ++i) r[A + i] = a[i];
  for (int i = 0; i < 3; ++i) r[X + i] = 1.0;
}
static int derivatives_of(double t, double* r, const char** message) {
  (void)t, (void)message;
  for (int i = 0; i < 3; ++i) {
    r[DER_X + i] = 0.0;
    for (int j = 0; j < 3; ++j) r[DER_X + i] += r[A + 3 * i + j] * r[X + j];
    r[Y + i] = r[X + i];
  }
  return 0;
}

const ModelSpec model_spec = {"{3f6b9d20-7c41-4e8a-a5d2-0b8e1c9f4a73}", N_REALS, 3, 0, states, derivatives,
                              start, derivatives_of, 0, 0, 0, 0, sizes};
