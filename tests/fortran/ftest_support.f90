! Shared by the Fortran tests: a failing check stops every rank (error stop ends the MPI job),
! a hash of a message to compare messages over ranks, the points and the grid graph the tests use.
module ftest_support
  use, intrinsic :: iso_c_binding
  implicit none
  private
  public :: check, message_hash, test_points, grid_graph

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      write (*, '(a)') 'FAILED: ' // what
      error stop 1
    end if
  end subroutine

  ! A 31-bit hash of s (FNV-1a folded), the same on every rank for the same text.
  integer function message_hash(s) result(h)
    character(*), intent(in) :: s
    integer(c_int64_t) :: x
    integer :: i
    x = 2166136261_c_int64_t
    do i = 1, len(s)
      x = ieor(x, int(ichar(s(i:i)), c_int64_t))
      x = modulo(x * 16777619_c_int64_t, 2147483647_c_int64_t)
    end do
    h = int(x)
  end function

  ! Rank r's share of `total` points on a jittered lattice: a block of global indices, the same
  ! global set for any rank count. coords(:, i), weights 1 + (g mod 3), ids g.
  subroutine test_points(rank, nranks, total, coords, weights, ids)
    integer, intent(in) :: rank, nranks
    integer(c_int64_t), intent(in) :: total
    real(c_double), allocatable, intent(out) :: coords(:, :), weights(:)
    integer(c_int64_t), allocatable, intent(out) :: ids(:)
    integer(c_int64_t) :: first, last, g, i
    first = total * rank / nranks
    last = total * (rank + 1) / nranks
    allocate (coords(3, last - first), weights(last - first), ids(last - first))
    do i = 1, last - first
      g = first + i - 1
      coords(1, i) = real(modulo(g * 7919_c_int64_t, 101_c_int64_t), c_double) / 101.0_c_double
      coords(2, i) = real(modulo(g * 104729_c_int64_t, 103_c_int64_t), c_double) / 103.0_c_double
      coords(3, i) = real(modulo(g, 97_c_int64_t), c_double) / 97.0_c_double
      weights(i) = real(1 + modulo(g, 3_c_int64_t), c_double)
      ids(i) = g
    end do
  end subroutine

  ! An nx x ny grid graph (4 neighbours), vertex g = x + nx * y, split into blocks over the
  ! ranks; 0-based ParMETIS arrays, 64-bit.
  subroutine grid_graph(rank, nranks, nx, ny, vtxdist, xadj, adjncy)
    integer, intent(in) :: rank, nranks, nx, ny
    integer(c_int64_t), allocatable, intent(out) :: vtxdist(:), xadj(:), adjncy(:)
    integer(c_int64_t) :: n, g, x, y, e
    integer :: r
    n = int(nx, c_int64_t) * ny
    allocate (vtxdist(nranks + 1))
    do r = 0, nranks
      vtxdist(r + 1) = n * r / nranks
    end do
    allocate (xadj(vtxdist(rank + 2) - vtxdist(rank + 1) + 1))
    allocate (adjncy(4 * (size(xadj) - 1)))
    xadj(1) = 0
    e = 0
    do g = vtxdist(rank + 1), vtxdist(rank + 2) - 1
      x = modulo(g, int(nx, c_int64_t))
      y = g / nx
      if (x > 0) call add(g - 1)
      if (x < nx - 1) call add(g + 1)
      if (y > 0) call add(g - nx)
      if (y < ny - 1) call add(g + nx)
      xadj(g - vtxdist(rank + 1) + 2) = e
    end do
    adjncy = adjncy(1:e)
  contains
    subroutine add(v)
      integer(c_int64_t), intent(in) :: v
      e = e + 1
      adjncy(e) = v
    end subroutine
  end subroutine
end module ftest_support
