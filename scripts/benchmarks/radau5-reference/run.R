# Hairer's RADAU5 (deSolve's radau) on a daekit problem plugin, with the IVP Test Set
# driver's settings: h0 = rtol = atol = tol, the problem's index counts, its analytic Jacobian
# (else RADAU5's differences), its mass matrix. One Markdown row per tolerance; seconds are the median of `repeats` runs.
#   Rscript run.R <model.so> <repeats> <tol>...
suppressMessages(library(deSolve))
args <- commandArgs(TRUE)
dyn.load(args[1])
model <- sub("\\.so$", "", basename(args[1]))
repeats <- as.integer(args[2])
tols <- as.numeric(args[-(1:2)])
info <- .C("model_info", n = integer(1), t0 = double(1), tend = double(1), ref = integer(1), jac = integer(1))
n <- info$n
y0 <- .C("model_initial_values", y = double(n))$y
mass <- matrix(.C("model_mass", y0, m = double(n * n))$m, n, n)
index <- .C("model_index", i = integer(n))$i
nind <- c(sum(index == 1), sum(index == 2), sum(index == 3))
cat("| tol | scd | steps | f evals | Jacobians | LUs | seconds |\n|---|---|---|---|---|---|---|\n")
for (tol in tols) {
  took_s <- c()
  for (k in seq_len(repeats)) {
    # RADAU5's own finite differences where the problem has no analytic Jacobian.
    took <- system.time(out <- radau(y0, c(info$t0, info$tend), func = "derivs",
                                     jacfunc = if (info$jac != 0) "jac" else NULL, dllname = model,
                                     initfunc = NULL, parms = NULL, mass = mass, nind = nind, rtol = tol,
                                     atol = tol, hini = tol, maxsteps = 1e6,
                                     jactype = if (info$jac != 0) "fullusr" else "fullint"))
    took_s <- c(took_s, took[["elapsed"]])
  }
  # A failed run returns the points before the failure: no scd for it.
  reached <- out[nrow(out), 1] >= info$tend - 1e-12 * abs(info$tend)
  if (!reached) {
    cat(sprintf("| %g | fails (stopped at t = %g) | %d | | | | |\n", tol, out[nrow(out), 1], attr(out, "istate")[2]))
    next
  }
  scd <- if (info$ref != 0) .C("model_scd", y = as.numeric(out[nrow(out), -1]), s = double(1))$s else NA
  istate <- attr(out, "istate")  # 2 steps, 3 f evaluations, 4 Jacobians, 10 LU decompositions
  cat(sprintf("| %g | %.2f | %d | %d | %d | %d | %.3f |\n", tol, scd, istate[2], istate[3], istate[4], istate[10], median(took_s)))
}
