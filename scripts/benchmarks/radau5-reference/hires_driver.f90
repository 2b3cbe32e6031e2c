! Hairer's RADAU5 or RADAU on HIRES, the test set's drivers' settings (rtol = atol = h0 = tol,
! the analytic Jacobian): the peer of docs/benchmarks/tolerance-windows.md's HIRES rows.
! The equations are the test set's hires.f (problems/hires/hires.cpp has the same). Built
! against the Fortran sources of Hairer's codes (radau5.f, radau.f, decsol.f, dc_decsol.f;
! ../shared/peers/src on the project's machines):
!   gfortran -O2 -std=legacy -w hires_driver.f90 radau5.f radau.f decsol.f dc_decsol.f -o hires_driver
!   ./hires_driver radau5 1.16e-6      -> idid, steps, then Y i y_i(321.8122)
program hires_driver
  implicit none
  external fcn, jac, mas, solout
  character(len=32) :: a1, a2
  integer, parameter :: n = 8
  integer :: ijac, mljac, mujac, imas, mlmas, mumas, itol, iout, idid, lwork, liwork, i
  double precision :: x, xend, h, rtol(1), atol(1), rpar(1), y(n), work(2000)
  integer :: ipar(1), iwork(200)
  call get_command_argument(1, a1); call get_command_argument(2, a2)
  read(a2, *) rtol(1); atol(1) = rtol(1)
  y = 0d0; y(1) = 1d0; y(8) = 0.0057d0
  x = 0d0; xend = 321.8122d0; h = rtol(1); itol = 0; iout = 0
  ijac = 1; mljac = n; mujac = n; imas = 0; mlmas = n; mumas = n
  work = 0d0; iwork = 0; iwork(2) = 100000; lwork = 2000; liwork = 200
  if (trim(a1) == 'radau') then
    call RADAU(n, fcn, x, y, xend, h, rtol, atol, itol, jac, ijac, mljac, mujac, &
               mas, imas, mlmas, mumas, solout, iout, work, lwork, iwork, liwork, rpar, ipar, idid)
  else
    call RADAU5(n, fcn, x, y, xend, h, rtol, atol, itol, jac, ijac, mljac, mujac, &
                mas, imas, mlmas, mumas, solout, iout, work, lwork, iwork, liwork, rpar, ipar, idid)
  end if
  write(*, '(a,i0,a,i0)') 'idid= ', idid, ' steps= ', iwork(16)
  do i = 1, n
    write(*, '(a,i0,1x,es24.16)') 'Y ', i, y(i)
  end do
end program
subroutine fcn(n, x, y, f, rpar, ipar)
  integer :: n, ipar(*)
  double precision :: x, y(n), f(n), rpar(*)
  f(1) = -1.71d0*y(1) + 0.43d0*y(2) + 8.32d0*y(3) + 0.0007d0
  f(2) = 1.71d0*y(1) - 8.75d0*y(2)
  f(3) = -10.03d0*y(3) + 0.43d0*y(4) + 0.035d0*y(5)
  f(4) = 8.32d0*y(2) + 1.71d0*y(3) - 1.12d0*y(4)
  f(5) = -1.745d0*y(5) + 0.43d0*y(6) + 0.43d0*y(7)
  f(6) = -280d0*y(6)*y(8) + 0.69d0*y(4) + 1.71d0*y(5) - 0.43d0*y(6) + 0.69d0*y(7)
  f(7) = 280d0*y(6)*y(8) - 1.81d0*y(7)
  f(8) = -f(7)
end subroutine
subroutine jac(n, x, y, dfy, ldfy, rpar, ipar)
  integer :: n, ldfy, ipar(*)
  double precision :: x, y(n), dfy(ldfy, n), rpar(*)
  dfy(1:n, 1:n) = 0d0
  dfy(1,1) = -1.71d0; dfy(1,2) = 0.43d0; dfy(1,3) = 8.32d0
  dfy(2,1) = 1.71d0; dfy(2,2) = -8.75d0
  dfy(3,3) = -10.03d0; dfy(3,4) = 0.43d0; dfy(3,5) = 0.035d0
  dfy(4,2) = 8.32d0; dfy(4,3) = 1.71d0; dfy(4,4) = -1.12d0
  dfy(5,5) = -1.745d0; dfy(5,6) = 0.43d0; dfy(5,7) = 0.43d0
  dfy(6,4) = 0.69d0; dfy(6,5) = 1.71d0; dfy(6,6) = -0.43d0 - 280d0*y(8); dfy(6,7) = 0.69d0; dfy(6,8) = -280d0*y(6)
  dfy(7,6) = 280d0*y(8); dfy(7,7) = -1.81d0; dfy(7,8) = 280d0*y(6)
  dfy(8,6) = -280d0*y(8); dfy(8,7) = 1.81d0; dfy(8,8) = -280d0*y(6)
end subroutine
subroutine mas(n, am, lmas, rpar, ipar)
  integer :: n, lmas, ipar(*)
  double precision :: am(lmas, n), rpar(*)
end subroutine
subroutine solout
end subroutine
