! Local calls on point sets, grids and results. Arrays handed to a create or set are borrowed by
! the handle, as in C: they must be contiguous, have the TARGET attribute and outlive the handle
! (checked: a non-contiguous array is refused, since a copy would not outlive the call).
module hpart_objects
  use, intrinsic :: iso_c_binding
  use hpart_c_types
  use hpart_c
  use hpart_base
  implicit none
  private
  public :: hpart_points_create, hpart_points_set_weights, hpart_points_set_ids, hpart_points_size, &
    hpart_points_free, hpart_grid_create, hpart_grid_free, hpart_partition_num_parts, &
    hpart_partition_local_size, hpart_get_parts, hpart_partition_metrics, hpart_partition_part_weights, &
    hpart_partition_part_sizes, hpart_partition_owners, hpart_partition_free, hpart_partition_box, &
    hpart_partition_part_of_cell

  interface hpart_points_set_ids
    module procedure points_set_ids_i32, points_set_ids_i64
  end interface
  ! The part of each local object, 0-based as in C (part ids are in [0, K)), into a 32- or 64-bit
  ! array of hpart_partition_local_size values.
  interface hpart_get_parts
    module procedure get_parts_i32, get_parts_i64
  end interface

contains

  ! n points of dim = size(coords, 1) (2 or 3) coordinates: coords(:, i) is point i.
  subroutine hpart_points_create(coords, points, stat, errmsg)
    real(c_double), intent(in), target :: coords(:, :)
    type(hpart_points), intent(out) :: points
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: code
    character(:), allocatable :: msg
    code = HPART_OK
    call ok_contiguous(is_contiguous(coords), 'hpart_points_create: coords', code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_points_create(int(size(coords, 1), c_int), int(size(coords, 2), c_int64_t), &
                                     c_addr(coords), points%h), stat, errmsg)
  end subroutine

  ! ncon weights per point (default 1), weights((i-1)*ncon + c) for point i; size n * ncon.
  subroutine hpart_points_set_weights(points, weights, ncon, stat, errmsg)
    type(hpart_points), intent(in) :: points
    real(c_double), intent(in), target :: weights(:)
    integer, intent(in), optional :: ncon
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: k
    integer(c_int64_t) :: n
    k = 1
    if (present(ncon)) k = int(ncon, c_int)
    if (.not. is_contiguous(weights)) then
      call fail(HPART_ERR_INVALID_ARGUMENT, &
                'hpart_points_set_weights: weights must be contiguous (the handle borrows it)', stat, errmsg)
      return
    end if
    if (hpartc_points_size(points%h, n) == HPART_OK .and. k >= 1) then
      if (size(weights, kind=c_int64_t) /= n * k) then
        call fail(HPART_ERR_SIZE_MISMATCH, 'hpart_points_set_weights: weights: size must be the points times ncon', &
                  stat, errmsg)
        return
      end if
    end if
    call finish(hpartc_points_set_weights(points%h, k, c_addr(weights)), stat, errmsg)
  end subroutine

  ! Global ids, one per point (non-negative, unique), borrowed at either width.
  subroutine points_set_ids_i64(points, ids, stat, errmsg)
    type(hpart_points), intent(in) :: points
    integer(c_int64_t), intent(in), target :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (.not. ids_fit(points, size(ids, kind=c_int64_t), is_contiguous(ids), stat, errmsg)) return
    call finish(hpartc_points_set_ids_i64(points%h, c_addr(ids)), stat, errmsg)
  end subroutine
  subroutine points_set_ids_i32(points, ids, stat, errmsg)
    type(hpart_points), intent(in) :: points
    integer(c_int32_t), intent(in), target :: ids(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (.not. ids_fit(points, size(ids, kind=c_int64_t), is_contiguous(ids), stat, errmsg)) return
    call finish(hpartc_points_set_ids_i32(points%h, c_addr(ids)), stat, errmsg)
  end subroutine

  logical function ids_fit(points, count, contiguous, stat, errmsg) result(ok)
    type(hpart_points), intent(in) :: points
    integer(c_int64_t), intent(in) :: count
    logical, intent(in) :: contiguous
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: n
    ok = .false.
    if (.not. contiguous) then
      call fail(HPART_ERR_INVALID_ARGUMENT, &
                'hpart_points_set_ids: ids must be contiguous (the handle borrows it)', stat, errmsg)
    else if (hpartc_points_size(points%h, n) == HPART_OK .and. count /= n) then
      call fail(HPART_ERR_SIZE_MISMATCH, 'hpart_points_set_ids: ids: one per point', stat, errmsg)
    else
      ok = .true.
    end if
  end function

  subroutine hpart_points_size(points, n, stat, errmsg)
    type(hpart_points), intent(in) :: points
    integer(c_int64_t), intent(out) :: n
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_points_size(points%h, n), stat, errmsg)
  end subroutine

  subroutine hpart_points_free(points, stat, errmsg)
    type(hpart_points), intent(inout) :: points
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_points_free(points%h), stat, errmsg)
  end subroutine

  ! A grid of extent(1:dim) cells; this rank holds the box lo..hi (0-based cell indices,
  ! inclusive), cost (optional, x fastest, one per cell) borrowed.
  subroutine hpart_grid_create(extent, lo, hi, grid, cost, stat, errmsg)
    integer(c_int64_t), intent(in), target :: extent(:), lo(:), hi(:)
    type(hpart_grid), intent(out) :: grid
    real(c_double), intent(in), target, optional :: cost(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: pcost
    if (size(lo) /= size(extent) .or. size(hi) /= size(extent)) then
      call fail(HPART_ERR_SIZE_MISMATCH, 'hpart_grid_create: lo, hi: one value per axis of extent', stat, errmsg)
      return
    end if
    pcost = c_null_ptr
    if (present(cost)) pcost = c_addr(cost)
    call finish(hpartc_grid_create(int(size(extent), c_int), c_addr(extent), c_addr(lo), c_addr(hi), &
                                   pcost, grid%h), stat, errmsg)
  end subroutine

  subroutine hpart_grid_free(grid, stat, errmsg)
    type(hpart_grid), intent(inout) :: grid
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_grid_free(grid%h), stat, errmsg)
  end subroutine

  subroutine hpart_partition_num_parts(p, num_parts, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer, intent(out) :: num_parts
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: k
    k = 0
    call finish(hpartc_partition_num_parts(p%h, k), stat, errmsg)
    num_parts = int(k)
  end subroutine

  subroutine hpart_partition_local_size(p, n, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer(c_int64_t), intent(out) :: n
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    n = 0
    call finish(hpartc_partition_local_size(p%h, n), stat, errmsg)
  end subroutine

  subroutine get_parts_i32(p, parts, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer(c_int32_t), intent(out), target, contiguous :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (.not. parts_fit(p, size(parts, kind=c_int64_t), stat, errmsg)) return
    call finish(hpartc_partition_get_parts_i32(p%h, c_addr(parts)), stat, errmsg)
  end subroutine
  subroutine get_parts_i64(p, parts, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer(c_int64_t), intent(out), target, contiguous :: parts(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (.not. parts_fit(p, size(parts, kind=c_int64_t), stat, errmsg)) return
    call finish(hpartc_partition_get_parts_i64(p%h, c_addr(parts)), stat, errmsg)
  end subroutine

  ! The output array holds exactly the partition's local objects (C writes that many).
  logical function parts_fit(p, count, stat, errmsg) result(ok)
    type(hpart_partition), intent(in) :: p
    integer(c_int64_t), intent(in) :: count
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int64_t) :: n
    integer(c_int) :: rc
    ok = .false.
    rc = hpartc_partition_local_size(p%h, n)
    if (rc /= HPART_OK) then
      call finish(rc, stat, errmsg)
    else if (count /= n) then
      call fail(HPART_ERR_SIZE_MISMATCH, 'hpart_get_parts: parts: size must be hpart_partition_local_size', &
                stat, errmsg)
    else
      ok = .true.
    end if
  end function

  ! The result's figures (imbalance, objects, cut, migration ...): see hpart_metrics.
  subroutine hpart_partition_metrics(p, m, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    type(hpart_metrics), intent(out) :: m
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: rc
    rc = hpartc_metrics_init(m)
    if (rc == HPART_OK) rc = hpartc_partition_metrics(p%h, m)
    call finish(rc, stat, errmsg)
  end subroutine

  ! Global part weights, weights(c, k + 1) for constraint c of part k (a copy).
  subroutine hpart_partition_part_weights(p, weights, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    real(c_double), allocatable, intent(out) :: weights(:, :)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(hpart_metrics) :: m
    type(c_ptr) :: w
    real(c_double), pointer :: view(:, :)
    integer(c_int) :: rc
    rc = hpartc_metrics_init(m)
    if (rc == HPART_OK) rc = hpartc_partition_metrics(p%h, m)
    if (rc == HPART_OK) rc = hpartc_partition_part_weights(p%h, w)
    allocate (weights(max(m%ncon, 1), max(m%num_parts, 0)))
    if (rc == HPART_OK .and. size(weights) > 0) then
      call c_f_pointer(w, view, shape(weights))
      weights = view
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  ! Global object count per part, sizes(k + 1) for part k (a copy).
  subroutine hpart_partition_part_sizes(p, sizes, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer(c_int64_t), allocatable, intent(out) :: sizes(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: s
    integer(c_int64_t), pointer :: view(:)
    integer(c_int) :: rc, k
    k = 0
    rc = hpartc_partition_num_parts(p%h, k)
    if (rc == HPART_OK) rc = hpartc_partition_part_sizes(p%h, s)
    allocate (sizes(k))
    if (rc == HPART_OK .and. k > 0) then
      call c_f_pointer(s, view, [k])
      sizes = view
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  ! The rank (0-based, of the partition's communicator) owning each part: owners(k + 1).
  subroutine hpart_partition_owners(p, owners, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer(c_int32_t), allocatable, intent(out) :: owners(:)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    type(c_ptr) :: o
    integer(c_int32_t), pointer :: view(:)
    integer(c_int) :: rc, k
    k = 0
    rc = hpartc_partition_num_parts(p%h, k)
    if (rc == HPART_OK) rc = hpartc_partition_owners(p%h, o)
    allocate (owners(k))
    if (rc == HPART_OK .and. k > 0) then
      call c_f_pointer(o, view, [k])
      owners = view
    end if
    call finish(rc, stat, errmsg)
  end subroutine

  ! Grid partitions: part's box lo..hi (0-based cells, inclusive; hi < lo when empty).
  subroutine hpart_partition_box(p, part, lo, hi, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer, intent(in) :: part
    integer(c_int64_t), intent(out), target :: lo(3), hi(3)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    lo = 0
    hi = -1
    call finish(hpartc_partition_box(p%h, int(part, c_int32_t), c_loc(lo), c_loc(hi)), stat, errmsg)
  end subroutine

  ! Grid partitions: the part of any cell (0-based indices), without communication.
  subroutine hpart_partition_part_of_cell(p, cell, part, stat, errmsg)
    type(hpart_partition), intent(in) :: p
    integer(c_int64_t), intent(in), target :: cell(:)
    integer, intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int32_t) :: k
    k = -1
    call finish(hpartc_partition_part_of_cell(p%h, c_addr(cell), k), stat, errmsg)
    part = int(k)
  end subroutine

  subroutine hpart_partition_free(p, stat, errmsg)
    type(hpart_partition), intent(inout) :: p
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_partition_free(p%h), stat, errmsg)
  end subroutine
end module hpart_objects
