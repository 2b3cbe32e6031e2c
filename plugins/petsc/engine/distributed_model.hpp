// A problem spread over MPI ranks (ABI 1.3 part E) as PETSc's TS sees it: its rows in an
// MPI vector laid out as the problem's distribution (rank r owns its block), the ghosts
// gathered by a VecScatter into the tail of a local vector before each evaluation, and
// F = M y' - f, a M - J on the owned rows (M = I or a constant diagonal), J in a parallel
// AIJ matrix preallocated from the local pattern (the problem's jacobian_local, else
// rhs_local differenced one colour at a time: a rank's columns, ghosts too, need no other
// rank).
#pragma once

#include <petscts.h>

#include <Eigen/Core>
#include <daekit/numerics/column_colouring.hpp>
#include <daekit/problem_view.hpp>
#include <daekit/solve_request.hpp>
#include <string>
#include <vector>

namespace daekit::plugins::petsc {

class DistributedModel {
 public:
  DistributedModel(ProblemView& problem, const SolveRequest& request);
  ~DistributedModel();
  DistributedModel(const DistributedModel&) = delete;
  DistributedModel& operator=(const DistributedModel&) = delete;

  // Checks the ranks' blocks cover 0 .. n-1, builds the scatter, M and the matrix; "" or
  // why not (the same answer on every rank).
  std::string setup();
  MPI_Comm communicator() const { return comm_; }
  int rank() const { return rank_; }
  Eigen::Index owned() const { return owned_; }
  // Whether the request's per-row data (y0, tolerances) holds the owned rows alone (the
  // problem's local rows, ABI 1.3 part G), and output goes to every rank's sink.
  bool local_rows() const { return dk_rows_held(&problem_.info()) < problem_.info().n; }
  // An MPI vector of the problem's layout holding the owned slice of a request's vector
  // (global, or the owned rows themselves with local rows).
  Vec vector_of(const Eigen::VectorXd& rows) const;
  // The same for a per-component value (a tolerance), without expanding it to n entries.
  Vec vector_of(const PerComponent& rows) const;
  Mat matrix() const { return matrix_; }
  ProblemView& problem() { return problem_; }
  const SolveRequest& request() const { return request_; }
  long jacobians() const { return jacobians_; }
  const std::string& failure() const { return failure_; }
  // Whether every algebraic row (M's zero diagonal) is consistent at t0: f_i(t0, y0) = 0
  // within the tolerances of y_i; on every rank the same answer.
  std::string check_algebraic_rows(Vec y0);
  // A first step from (t, y) (t0, or a breakpoint's restart) from the weighted RMS norms
  // over all ranks of f(t, y) and y; 0 when f failed on some rank.
  double first_step(double t, Vec y);

  static PetscErrorCode residual(TS ts, PetscReal t, Vec y, Vec yp, Vec f, void* self);
  static PetscErrorCode iteration_matrix(TS ts, PetscReal t, Vec y, Vec yp, PetscReal a, Mat, Mat p, void* self);

 private:
  void gather_local(Vec y);  // owned values and ghosts into local_
  Eval evaluate_jacobian(double t);
  Eval agree(Eval e) const;
  // `here`: this rank's model failed (else another's did).
  PetscErrorCode model_failed(TS ts, Eval e, bool here, bool in_jacobian);
  // The request's tolerances at the local vector's entries, ghosts too (scattered from their
  // owners once, so that no rank needs another's rows of them).
  void localise_tolerances();
  // Where the owned rows start in the request's vectors: first_row, or 0 with local rows.
  std::size_t offset() const { return local_rows() ? 0 : first_; }
  double weight(Eigen::Index local_column) const;  // 1 / (rtol |y| + atol) of a local column

  ProblemView& problem_;
  const SolveRequest& request_;
  const dk_distribution& d_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  Eigen::Index owned_ = 0, ghosts_ = 0;
  std::size_t first_ = 0;
  Vec ghost_values_ = nullptr;  // sequential, on the tail of local_
  IS ghost_rows_ = nullptr;
  VecScatter to_ghosts_ = nullptr;
  Mat matrix_ = nullptr;
  Eigen::VectorXd local_, f_, mass_, values_, row_, perturbed_, f_perturbed_;
  Eigen::VectorXd rtol_local_, atol_local_;  // the request's tolerances, owned then ghosts
  std::vector<PetscInt> global_columns_;  // per pattern entry
  std::vector<PetscInt> diagonal_at_;     // per owned row: its diagonal's entry, or -1
  ColumnColouring colouring_;             // of the local columns, for differences
  long jacobians_ = 0;
  std::string failure_;
};

}  // namespace daekit::plugins::petsc
