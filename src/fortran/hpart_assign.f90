! Point and box assign (Zoltan's LB_Point_Assign / LB_Box_Assign): a partition's descriptor
! (hpart_map: O(K) memory, the same on every rank), made collectively from a partition and the
! objects and options it was made with, then queried locally with no communication. Parts and
! ranks are 0-based; a coordinate is dim values (grids: in cell units).
module hpart_assign
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm
  use hpart_c_types
  use hpart_c
  use hpart_base
  implicit none
  private
  public :: hpart_map_create, hpart_map_part_of, hpart_map_rank_of, hpart_map_rank_of_part, hpart_map_assign, &
    hpart_map_parts_in_box, hpart_map_ranks_in_box, hpart_map_num_parts, hpart_map_save, hpart_map_load, &
    hpart_map_free

  ! (comm, objects, [opts,] partition, map [, stat, errmsg]): points with their point or
  ! hierarchical options, or a grid.
  interface hpart_map_create
    module procedure map_points_i, map_points_t, map_hier_i, map_hier_t, map_grid_i, map_grid_t
  end interface

contains

  subroutine map_points_i(comm, points, opts, p, map, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_point_options), intent(in) :: opts
    type(hpart_partition), intent(in) :: p
    type(hpart_map), intent(out) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_map_create_points_f(int(comm, c_int), points%h, opts, p%h, map%h), stat, errmsg)
  end subroutine
  subroutine map_points_t(comm, points, opts, p, map, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_point_options), intent(in) :: opts
    type(hpart_partition), intent(in) :: p
    type(hpart_map), intent(out) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call map_points_i(comm%MPI_VAL, points, opts, p, map, stat, errmsg)
  end subroutine
  subroutine map_hier_i(comm, points, opts, p, map, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_hier_point_options), intent(in) :: opts
    type(hpart_partition), intent(in) :: p
    type(hpart_map), intent(out) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_map_create_points_hierarchical_f(int(comm, c_int), points%h, opts, p%h, map%h), stat, errmsg)
  end subroutine
  subroutine map_hier_t(comm, points, opts, p, map, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_points), intent(in) :: points
    type(hpart_hier_point_options), intent(in) :: opts
    type(hpart_partition), intent(in) :: p
    type(hpart_map), intent(out) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call map_hier_i(comm%MPI_VAL, points, opts, p, map, stat, errmsg)
  end subroutine
  subroutine map_grid_i(comm, grid, p, map, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_grid), intent(in) :: grid
    type(hpart_partition), intent(in) :: p
    type(hpart_map), intent(out) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_map_create_grid_f(int(comm, c_int), grid%h, p%h, map%h), stat, errmsg)
  end subroutine
  subroutine map_grid_t(comm, grid, p, map, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_grid), intent(in) :: grid
    type(hpart_partition), intent(in) :: p
    type(hpart_map), intent(out) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call map_grid_i(comm%MPI_VAL, grid, p, map, stat, errmsg)
  end subroutine

  ! The coordinate's length is the map's dim (checked, as C cannot).
  logical function fits(map, n, stat, errmsg) result(ok)
    type(hpart_map), intent(in) :: map
    integer, intent(in) :: n
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: dim, rc
    rc = hpartc_map_dim(map%h, dim)
    ok = rc == HPART_OK .and. n == dim
    if (rc /= HPART_OK) call finish(rc, stat, errmsg)
    if (rc == HPART_OK .and. .not. ok) &
      call fail(HPART_ERR_SIZE_MISMATCH, 'hpart_map: a coordinate has the map''s dim values', stat, errmsg)
  end function

  ! The part of coordinate x; with id (the object's global id in the partition) exact for the
  ! objects the partition saw.
  subroutine hpart_map_part_of(map, x, part, id, stat, errmsg)
    type(hpart_map), intent(in) :: map
    real(c_double), intent(in), target, contiguous :: x(:)
    integer, intent(out) :: part
    integer(c_int64_t), intent(in), optional :: id
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: k
    part = -1
    if (.not. fits(map, size(x), stat, errmsg)) return
    if (present(id)) then
      call finish(hpartc_map_part_of_id(map%h, c_loc(x), id, k), stat, errmsg)
    else
      call finish(hpartc_map_part_of(map%h, c_loc(x), k), stat, errmsg)
    end if
    part = int(k)
  end subroutine

  subroutine hpart_map_rank_of(map, x, rank, stat, errmsg)
    type(hpart_map), intent(in) :: map
    real(c_double), intent(in), target, contiguous :: x(:)
    integer, intent(out) :: rank
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: r
    rank = -1
    if (.not. fits(map, size(x), stat, errmsg)) return
    call finish(hpartc_map_rank_of(map%h, c_loc(x), r), stat, errmsg)
    rank = int(r)
  end subroutine

  subroutine hpart_map_rank_of_part(map, part, rank, stat, errmsg)
    type(hpart_map), intent(in) :: map
    integer, intent(in) :: part
    integer, intent(out) :: rank
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: r
    r = -1
    call finish(hpartc_map_rank_of_part(map%h, int(part, c_int32_t), r), stat, errmsg)
    rank = int(r)
  end subroutine

  ! The parts of n points coords(:, i) (ids optional, exact for objects the partition saw).
  subroutine hpart_map_assign(map, coords, parts, ids, stat, errmsg)
    type(hpart_map), intent(in) :: map
    real(c_double), intent(in), target, contiguous :: coords(:, :)
    integer(c_int32_t), intent(out), target, contiguous :: parts(:)
    integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: pi
    if (.not. fits(map, size(coords, 1), stat, errmsg)) return
    pi = c_null_ptr
    if (present(ids)) pi = c_addr(ids)
    if (size(parts) /= size(coords, 2) .or. (present(ids) .and. size(ids) /= size(coords, 2))) then
      call fail(HPART_ERR_SIZE_MISMATCH, 'hpart_map_assign: parts (and ids) one per point', stat, errmsg)
      return
    end if
    call finish(hpartc_map_assign(map%h, size(coords, 2, kind=c_int64_t), c_addr(coords), pi, c_addr(parts)), &
                stat, errmsg)
  end subroutine

  ! Every part whose region meets the closed box [lo, hi], ascending (an allocated copy).
  subroutine hpart_map_parts_in_box(map, lo, hi, parts, stat, errmsg)
    type(hpart_map), intent(in) :: map
    real(c_double), intent(in), target, contiguous :: lo(:), hi(:)
    integer(c_int32_t), allocatable, target, intent(out) :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: count
    integer(c_int) :: rc
    allocate (parts(0))
    if (.not. fits(map, size(lo), stat, errmsg) .or. .not. fits(map, size(hi), stat, errmsg)) return
    rc = hpartc_map_parts_in_box(map%h, c_loc(lo), c_loc(hi), c_null_ptr, 0_c_int64_t, count)
    if (rc == HPART_OK) then
      deallocate (parts)
      allocate (parts(count))
      rc = hpartc_map_parts_in_box(map%h, c_loc(lo), c_loc(hi), c_addr(parts), count, count)
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  ! Every rank owning a part whose region meets the closed box [lo, hi], ascending.
  subroutine hpart_map_ranks_in_box(map, lo, hi, ranks, stat, errmsg)
    type(hpart_map), intent(in) :: map
    real(c_double), intent(in), target, contiguous :: lo(:), hi(:)
    integer(c_int), allocatable, target, intent(out) :: ranks(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: count
    integer(c_int) :: rc
    allocate (ranks(0))
    if (.not. fits(map, size(lo), stat, errmsg) .or. .not. fits(map, size(hi), stat, errmsg)) return
    rc = hpartc_map_ranks_in_box(map%h, c_loc(lo), c_loc(hi), c_null_ptr, 0_c_int64_t, count)
    if (rc == HPART_OK) then
      deallocate (ranks)
      allocate (ranks(count))
      rc = hpartc_map_ranks_in_box(map%h, c_loc(lo), c_loc(hi), c_loc(ranks), count, count)
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  subroutine hpart_map_num_parts(map, num_parts, stat, errmsg)
    type(hpart_map), intent(in) :: map
    integer, intent(out) :: num_parts
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: k
    k = 0
    call finish(hpartc_map_num_parts(map%h, k), stat, errmsg)
    num_parts = int(k)
  end subroutine

  ! Saved as text (a restart, or another code), loaded without a communicator.
  subroutine hpart_map_save(map, path, stat, errmsg)
    type(hpart_map), intent(in) :: map
    character(*), intent(in) :: path
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_map_save(map%h, c_string(path)), stat, errmsg)
  end subroutine
  subroutine hpart_map_load(path, map, stat, errmsg)
    character(*), intent(in) :: path
    type(hpart_map), intent(out) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_map_load(c_string(path), map%h), stat, errmsg)
  end subroutine

  subroutine hpart_map_free(map, stat, errmsg)
    type(hpart_map), intent(inout) :: map
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_map_free(map%h), stat, errmsg)
  end subroutine
end module hpart_assign
