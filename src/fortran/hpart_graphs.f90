! Distributed graphs in the ParMETIS layout, 0-based as in C (vtxdist, xadj and adjncy hold
! 0-based offsets and global vertex ids), with 32- or 64-bit arrays (one generic name), and their
! collective partition, repartition and cut. The lengths Fortran knows are checked before the
! C call, agreed over the communicator (hpart_base's agree), so that every rank fails alike.
module hpart_graphs
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm, MPI_COMM_NULL, MPI_Comm_rank, MPI_Comm_size, operator(==)
  use hpart_c_types
  use hpart_c
  use hpart_base
  implicit none
  private
  public :: hpart_graph_create, hpart_graph_set_coords, hpart_graph_local_vertices, hpart_graph_free, &
    hpart_partition_graph, hpart_repartition_graph, hpart_graph_cut

  ! (comm, vtxdist, xadj, adjncy, graph [, vwgt, adjwgt, ncon, stat, errmsg]): 64-bit arrays are
  ! borrowed (contiguous, TARGET, outliving the handle); 32-bit ones are widened once, here.
  interface hpart_graph_create
    module procedure graph_create_i64_i, graph_create_i64_t, graph_create_i32_i, graph_create_i32_t
  end interface
  interface hpart_partition_graph
    module procedure partition_graph_i, partition_graph_t
  end interface
  interface hpart_repartition_graph
    module procedure repartition_graph_i, repartition_graph_t
  end interface
  interface hpart_graph_cut
    module procedure graph_cut_i, graph_cut_t
  end interface

contains

  ! The lengths of this rank's arrays against vtxdist: code and msg name the first that is off.
  ! Skipped with MPI_COMM_NULL (the C call refuses it).
  subroutine check_lengths(nvtx, vlo, vhi, nxadj, xlast, nadj, nvwgt, nadjwgt, ncon, code, msg)
    integer(c_int64_t), intent(in) :: nvtx, vlo, vhi, nxadj, xlast, nadj, nvwgt, nadjwgt
    integer(c_int), intent(in) :: ncon
    integer(c_int), intent(out) :: code
    character(:), allocatable, intent(out) :: msg
    integer(c_int64_t) :: n
    n = vhi - vlo
    code = HPART_ERR_SIZE_MISMATCH
    msg = ''
    if (nvtx < 0) then
      msg = 'hpart_graph_create: vtxdist: one value per rank plus one'
    else if (nxadj /= n + 1) then
      msg = 'hpart_graph_create: xadj: local vertices (from vtxdist) plus one values'
    else if (nadj /= xlast) then
      msg = 'hpart_graph_create: adjncy: xadj(n + 1) values'
    else if (nvwgt >= 0 .and. nvwgt /= n * ncon) then
      msg = 'hpart_graph_create: vwgt: local vertices times ncon values'
    else if (nadjwgt >= 0 .and. nadjwgt /= nadj) then
      msg = 'hpart_graph_create: adjwgt: one per adjncy entry'
    else
      code = HPART_OK
    end if
  end subroutine

  ! This rank's first and end vertex from vtxdist (nvtx = -1 when vtxdist's length is not R + 1).
  subroutine block_of(fcomm, vtxdist, nvtx, vlo, vhi, skip)
    integer, intent(in) :: fcomm
    integer(c_int64_t), intent(in) :: vtxdist(:)
    integer(c_int64_t), intent(out) :: nvtx, vlo, vhi
    logical, intent(out) :: skip
    type(MPI_Comm) :: comm
    integer :: rank, nranks
    comm%MPI_VAL = fcomm
    skip = comm == MPI_COMM_NULL
    nvtx = -1
    vlo = 0
    vhi = 0
    if (skip) return
    call MPI_Comm_rank(comm, rank)
    call MPI_Comm_size(comm, nranks)
    if (size(vtxdist) /= nranks + 1) return
    nvtx = size(vtxdist)
    vlo = vtxdist(rank + 1)
    vhi = vtxdist(rank + 2)
  end subroutine

  ! Common checks of both widths, on this rank (the caller agrees); xlast is xadj's last value
  ! (0 when xadj is empty).
  subroutine graph_checks(fcomm, vtxdist, nxadj, xlast, nadj, nvwgt, nadjwgt, ncon, code, msg)
    integer, intent(in) :: fcomm
    integer(c_int64_t), intent(in) :: vtxdist(:), nxadj, xlast, nadj, nvwgt, nadjwgt
    integer(c_int), intent(in) :: ncon
    integer(c_int), intent(out) :: code
    character(:), allocatable, intent(out) :: msg
    integer(c_int64_t) :: nvtx, vlo, vhi
    logical :: skip
    call block_of(fcomm, vtxdist, nvtx, vlo, vhi, skip)
    code = HPART_OK
    msg = ''
    if (skip) return
    call check_lengths(nvtx, vlo, vhi, nxadj, xlast, nadj, nvwgt, nadjwgt, ncon, code, msg)
  end subroutine

  subroutine graph_create_i64_i(comm, vtxdist, xadj, adjncy, graph, vwgt, adjwgt, ncon, stat, errmsg)
    integer, intent(in) :: comm
    integer(c_int64_t), intent(in), target :: vtxdist(:), xadj(:), adjncy(:)
    type(hpart_graph), intent(out) :: graph
    integer(c_int64_t), intent(in), target, optional :: vwgt(:), adjwgt(:)
    integer, intent(in), optional :: ncon
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: k, code
    integer(c_int64_t) :: nvwgt, nadjwgt
    character(:), allocatable :: msg
    type(c_ptr) :: pv, pa
    logical :: contig
    call no_weights(ncon, k, nvwgt, nadjwgt, pv, pa)
    contig = is_contiguous(vtxdist) .and. is_contiguous(xadj) .and. is_contiguous(adjncy)
    call borrow(vwgt, nvwgt, pv, contig)
    call borrow(adjwgt, nadjwgt, pa, contig)
    call graph_checks(comm, vtxdist, size(xadj, kind=c_int64_t), last_i64(xadj), size(adjncy, kind=c_int64_t), &
                      nvwgt, nadjwgt, k, code, msg)
    if (code == HPART_OK .and. .not. contig) &
      call ok_contiguous(.false., 'hpart_graph_create: vtxdist, xadj, adjncy, vwgt, adjwgt', code, msg)
    call agree(comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_graph_create_i64_f(int(comm, c_int), c_addr(vtxdist), c_addr(xadj), c_addr(adjncy), pv, k, &
                                          pa, graph%h), stat, errmsg)
  end subroutine
  subroutine graph_create_i64_t(comm, vtxdist, xadj, adjncy, graph, vwgt, adjwgt, ncon, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    integer(c_int64_t), intent(in), target :: vtxdist(:), xadj(:), adjncy(:)
    type(hpart_graph), intent(out) :: graph
    integer(c_int64_t), intent(in), target, optional :: vwgt(:), adjwgt(:)
    integer, intent(in), optional :: ncon
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call graph_create_i64_i(comm%MPI_VAL, vtxdist, xadj, adjncy, graph, vwgt, adjwgt, ncon, stat, errmsg)
  end subroutine

  ! The defaults of the optional weights: ncon 1, lengths -1 (absent), NULL pointers.
  subroutine no_weights(ncon, k, nvwgt, nadjwgt, pv, pa)
    integer, intent(in), optional :: ncon
    integer(c_int), intent(out) :: k
    integer(c_int64_t), intent(out) :: nvwgt, nadjwgt
    type(c_ptr), intent(out) :: pv, pa
    k = 1
    if (present(ncon)) k = int(ncon, c_int)
    nvwgt = -1
    nadjwgt = -1
    pv = c_null_ptr
    pa = c_null_ptr
  end subroutine

  ! An optional array the handle borrows, of either integer kind (assumed type and rank, Fortran
  ! 2018): its length and address when present, and whether every borrowed array so far is
  ! contiguous.
  subroutine borrow(a, n, p, contig)
    type(*), intent(in), target, optional :: a(..)
    integer(c_int64_t), intent(inout) :: n
    type(c_ptr), intent(inout) :: p
    logical, intent(inout) :: contig
    if (.not. present(a)) return
    n = size(a, kind=c_int64_t)
    p = c_loc(a)
    contig = contig .and. is_contiguous(a)
  end subroutine

  integer(c_int64_t) function last_i64(a) result(v)
    integer(c_int64_t), intent(in) :: a(:)
    v = 0
    if (size(a) > 0) v = a(size(a))
  end function

  ! The 32-bit arrays are borrowed as the 64-bit ones are (hpart reads them at 32 bits): the same
  ! contiguity rule.
  subroutine graph_create_i32_i(comm, vtxdist, xadj, adjncy, graph, vwgt, adjwgt, ncon, stat, errmsg)
    integer, intent(in) :: comm
    integer(c_int32_t), intent(in), target :: vtxdist(:), xadj(:), adjncy(:)
    type(hpart_graph), intent(out) :: graph
    integer(c_int32_t), intent(in), target, optional :: vwgt(:), adjwgt(:)
    integer, intent(in), optional :: ncon
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: k, code
    integer(c_int64_t) :: nvwgt, nadjwgt, xlast
    character(:), allocatable :: msg
    type(c_ptr) :: pv, pa
    logical :: contig
    call no_weights(ncon, k, nvwgt, nadjwgt, pv, pa)
    contig = is_contiguous(vtxdist) .and. is_contiguous(xadj) .and. is_contiguous(adjncy)
    call borrow(vwgt, nvwgt, pv, contig)
    call borrow(adjwgt, nadjwgt, pa, contig)
    xlast = 0
    if (size(xadj) > 0) xlast = xadj(size(xadj))
    call graph_checks(comm, int(vtxdist, c_int64_t), size(xadj, kind=c_int64_t), xlast, &
                      size(adjncy, kind=c_int64_t), nvwgt, nadjwgt, k, code, msg)
    if (code == HPART_OK .and. .not. contig) &
      call ok_contiguous(.false., 'hpart_graph_create: vtxdist, xadj, adjncy, vwgt, adjwgt', code, msg)
    call agree(comm, code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_graph_create_i32_f(int(comm, c_int), c_addr(vtxdist), c_addr(xadj), c_addr(adjncy), pv, k, &
                                          pa, graph%h), stat, errmsg)
  end subroutine
  subroutine graph_create_i32_t(comm, vtxdist, xadj, adjncy, graph, vwgt, adjwgt, ncon, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    integer(c_int32_t), intent(in), target :: vtxdist(:), xadj(:), adjncy(:)
    type(hpart_graph), intent(out) :: graph
    integer(c_int32_t), intent(in), target, optional :: vwgt(:), adjwgt(:)
    integer, intent(in), optional :: ncon
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call graph_create_i32_i(comm%MPI_VAL, vtxdist, xadj, adjncy, graph, vwgt, adjwgt, ncon, stat, errmsg)
  end subroutine

  ! Local: vertex coordinates for the geometric method, coords(:, i) for local vertex i (borrowed).
  subroutine hpart_graph_set_coords(graph, coords, stat, errmsg)
    type(hpart_graph), intent(in) :: graph
    real(c_double), intent(in), target :: coords(:, :)
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    if (.not. is_contiguous(coords)) then
      call fail(HPART_ERR_INVALID_ARGUMENT, &
                'hpart_graph_set_coords: coords must be contiguous (the handle borrows it)', stat, errmsg)
      return
    end if
    call finish(hpartc_graph_set_coords(graph%h, int(size(coords, 1), c_int), c_addr(coords)), stat, errmsg)
  end subroutine

  subroutine hpart_graph_local_vertices(graph, n, stat, errmsg)
    type(hpart_graph), intent(in) :: graph
    integer(c_int64_t), intent(out) :: n
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    n = 0
    call finish(hpartc_graph_local_vertices(graph%h, n), stat, errmsg)
  end subroutine

  subroutine hpart_graph_free(graph, stat, errmsg)
    type(hpart_graph), intent(inout) :: graph
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_graph_free(graph%h), stat, errmsg)
  end subroutine

  subroutine partition_graph_i(comm, graph, opts, part, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_graph), intent(in) :: graph
    type(hpart_graph_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call finish(hpartc_partition_graph_f(int(comm, c_int), graph%h, opts, part%h), stat, errmsg)
  end subroutine
  subroutine partition_graph_t(comm, graph, opts, part, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_graph), intent(in) :: graph
    type(hpart_graph_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call partition_graph_i(comm%MPI_VAL, graph, opts, part, stat, errmsg)
  end subroutine

  ! parts has one id per local vertex (agreed over comm; a bad handle is left to the C call).
  subroutine parts_per_vertex(fn, comm, graph, count, code, msg)
    character(*), intent(in) :: fn
    integer, intent(in) :: comm
    type(hpart_graph), intent(in) :: graph
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(out) :: code
    character(:), allocatable, intent(out) :: msg
    integer(c_int64_t) :: n
    code = HPART_OK
    msg = ''
    if (hpartc_graph_local_vertices(graph%h, n) == HPART_OK) then
      if (count /= n) code = HPART_ERR_SIZE_MISMATCH
      if (count /= n) msg = fn // ': parts: one per local vertex'
    end if
    call agree(comm, code, msg)
  end subroutine

  ! Incremental repartition from current (0-based part of each local vertex).
  subroutine repartition_graph_i(comm, graph, current, opts, part, stat, errmsg)
    integer, intent(in) :: comm
    type(hpart_graph), intent(in) :: graph
    integer(c_int32_t), intent(in), target, contiguous :: current(:)
    type(hpart_graph_repart_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: code
    character(:), allocatable :: msg
    call parts_per_vertex('hpart_repartition_graph', comm, graph, size(current, kind=c_int64_t), code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_repartition_graph_f(int(comm, c_int), graph%h, c_addr(current), opts, part%h), stat, errmsg)
  end subroutine
  subroutine repartition_graph_t(comm, graph, current, opts, part, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_graph), intent(in) :: graph
    integer(c_int32_t), intent(in), target, contiguous :: current(:)
    type(hpart_graph_repart_options), intent(in) :: opts
    type(hpart_partition), intent(out) :: part
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call repartition_graph_i(comm%MPI_VAL, graph, current, opts, part, stat, errmsg)
  end subroutine

  ! The cut of parts (0-based, one per local vertex) into num_parts parts.
  subroutine graph_cut_i(comm, graph, parts, num_parts, m, stat, errmsg)
    integer, intent(in) :: comm, num_parts
    type(hpart_graph), intent(in) :: graph
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    type(hpart_graph_metrics), intent(out) :: m
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    integer(c_int) :: code
    character(:), allocatable :: msg
    code = hpartc_graph_metrics_init(m)
    call parts_per_vertex('hpart_graph_cut', comm, graph, size(parts, kind=c_int64_t), code, msg)
    if (code /= HPART_OK) then
      call fail(code, msg, stat, errmsg)
      return
    end if
    call finish(hpartc_graph_cut_f(int(comm, c_int), graph%h, c_addr(parts), int(num_parts, c_int), m), &
                stat, errmsg)
  end subroutine
  subroutine graph_cut_t(comm, graph, parts, num_parts, m, stat, errmsg)
    type(MPI_Comm), intent(in) :: comm
    type(hpart_graph), intent(in) :: graph
    integer(c_int32_t), intent(in), target, contiguous :: parts(:)
    integer, intent(in) :: num_parts
    type(hpart_graph_metrics), intent(out) :: m
    integer, intent(out), optional :: stat
    character(*), intent(inout), optional :: errmsg
    call graph_cut_i(comm%MPI_VAL, graph, parts, num_parts, m, stat, errmsg)
  end subroutine
end module hpart_graphs
