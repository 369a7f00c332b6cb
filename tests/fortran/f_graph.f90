! Graphs and grids from Fortran with INTEGER communicators (use mpi): a grid graph's partition
! (64- and 32-bit arrays alike) has parts in range, the cut counted here independently, the
! balance it reports; a repartition after a weight change counts what it moved; a grid
! partition locates every local cell in the part and the box it gave it, also after moving a
! blocks partition's planes; the geometric method on vertex coordinates; a METIS file and a point file read,
! and parts written, through the file wrappers; the same ring as MatrixMarket and Chaco files; an
! HDF5 partition file written and its parts read back; a migration plan from 64-bit part ids.
program f_graph
  use, intrinsic :: iso_c_binding
  use mpi
  use hpart
  use ftest_support
  implicit none
  integer, parameter :: K = 4, NX = 20, NY = 15
  integer :: rank, nranks, ierr
  integer(c_int64_t), allocatable, target :: vtxdist(:), xadj(:), adjncy(:), vwgt(:)
  integer(c_int32_t), allocatable :: parts(:), parts32(:)
  type(hpart_graph) :: graph
  type(hpart_graph_options) :: opts
  type(hpart_partition) :: part
  type(hpart_metrics) :: m
  type(hpart_graph_metrics) :: gm

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call grid_graph(rank, nranks, NX, NY, vtxdist, xadj, adjncy)
  call hpart_graph_create(MPI_COMM_WORLD, vtxdist, xadj, adjncy, graph)
  call hpart_graph_options_init(opts)
  opts%parts = K
  call hpart_partition_graph(MPI_COMM_WORLD, graph, opts, part)
  allocate (parts(size(xadj) - 1), parts32(size(xadj) - 1))
  call hpart_get_parts(part, parts)
  call check(all(parts >= 0 .and. parts < K), 'every vertex has a part in [0, K)')
  call hpart_partition_metrics(part, m)
  call check(m%has_cut == 1 .and. m%edge_cut == cut_of(parts), 'the reported cut is the one counted here')
  call hpart_graph_cut(MPI_COMM_WORLD, graph, parts, K, gm)
  call check(gm%edge_cut == m%edge_cut, 'hpart_graph_cut agrees')
  call check(abs(m%imbalance - imbalance_of(parts, [(1_c_int64_t, ierr = 1, size(parts))])) < 1e-12_c_double, &
             'the reported imbalance is the one counted here')
  call check(m%imbalance <= opts%imbalance .and. m%within_tolerance == 1, 'balanced within 3%')
  call check_i32(parts32)
  call check(all(parts32 == parts), 'the 32-bit arrays give the same parts')
  call check_repartition(parts)
  call check_geometric()
  call hpart_partition_free(part)
  call hpart_graph_free(graph)
  call check_grid()
  call check_files()
  if (rank == 0) write (*, '(a)') 'f_graph: ok'
  call MPI_Finalize(ierr)

contains

  ! Edge cut counted from all parts (gathered: the graph is small), each edge at its lower end.
  integer(c_int64_t) function cut_of(parts) result(cut)
    integer(c_int32_t), intent(in) :: parts(:)
    integer(c_int32_t), allocatable :: all(:)
    integer :: counts(nranks), displs(nranks), r
    integer(c_int64_t) :: i, e, g, mine
    do r = 1, nranks
      counts(r) = int(vtxdist(r + 1) - vtxdist(r))
      displs(r) = int(vtxdist(r))
    end do
    allocate (all(vtxdist(nranks + 1)))
    call MPI_Allgatherv(parts, size(parts), MPI_INTEGER4, all, counts, displs, MPI_INTEGER4, MPI_COMM_WORLD, ierr)
    mine = 0
    do i = 1, size(parts)
      g = vtxdist(rank + 1) + i - 1
      do e = xadj(i) + 1, xadj(i + 1)
        if (adjncy(e) > g .and. all(adjncy(e) + 1) /= parts(i)) mine = mine + 1
      end do
    end do
    call MPI_Allreduce(mine, cut, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function

  real(c_double) function imbalance_of(parts, w) result(imb)
    integer(c_int32_t), intent(in) :: parts(:)
    integer(c_int64_t), intent(in) :: w(:)
    integer(c_int64_t) :: mine(K), sums(K)
    integer :: i
    mine = 0
    do i = 1, size(parts)
      mine(parts(i) + 1) = mine(parts(i) + 1) + w(i)
    end do
    call MPI_Allreduce(mine, sums, K, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    imb = real(maxval(sums), c_double) / (real(sum(sums), c_double) / K) - 1
  end function

  ! The 32-bit arrays are borrowed by the handle: they must outlive it (locals of this routine).
  subroutine check_i32(parts32)
    integer(c_int32_t), intent(out) :: parts32(:)
    type(hpart_graph) :: g32
    type(hpart_partition) :: p32
    integer(c_int32_t), allocatable, target :: v32(:), x32(:), a32(:)
    v32 = int(vtxdist, c_int32_t)
    x32 = int(xadj, c_int32_t)
    a32 = int(adjncy, c_int32_t)
    call hpart_graph_create(MPI_COMM_WORLD, v32, x32, a32, g32)
    call hpart_partition_graph(MPI_COMM_WORLD, g32, opts, p32)
    call hpart_get_parts(p32, parts32)
    call hpart_partition_free(p32)
    call hpart_graph_free(g32)
  end subroutine

  ! Vertices of part 0 weigh 3: the repartition from `parts` reports the imbalance counted here
  ! and migrated = the vertices whose part changed.
  subroutine check_repartition(parts)
    integer(c_int32_t), intent(in) :: parts(:)
    type(hpart_graph) :: heavy
    type(hpart_graph_repart_options) :: ropts
    type(hpart_partition) :: rp
    type(hpart_metrics) :: rm
    integer(c_int32_t), allocatable :: after(:)
    integer(c_int64_t) :: moved
    vwgt = merge(3_c_int64_t, 1_c_int64_t, parts == 0)
    call hpart_graph_create(MPI_COMM_WORLD, vtxdist, xadj, adjncy, heavy, vwgt=vwgt)
    call hpart_graph_repart_options_init(ropts)
    ropts%parts = K
    call hpart_repartition_graph(MPI_COMM_WORLD, heavy, parts, ropts, rp)
    allocate (after(size(parts)))
    call hpart_get_parts(rp, after)
    call check(all(after >= 0 .and. after < K), 'repartitioned parts in range')
    call hpart_partition_metrics(rp, rm)
    call check(rm%is_repartition == 1, 'a repartition says so')
    call check(abs(rm%imbalance - imbalance_of(after, vwgt)) < 1e-12_c_double, 'repartition imbalance counted here')
    call check(rm%imbalance < imbalance_of(parts, vwgt), 'the repartition balances the new weights better')
    moved = count(after /= parts)
    call MPI_Allreduce(MPI_IN_PLACE, moved, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(rm%migrated_objects == moved, 'migrated counts the vertices that changed part')
    call hpart_partition_free(rp)
    call hpart_graph_free(heavy)
  end subroutine

  ! Coordinates on the grid graph's vertices and the geometric method: parts in range, the cut
  ! reported is the one counted here.
  subroutine check_geometric()
    type(hpart_graph) :: g
    type(hpart_graph_options) :: gopts
    type(hpart_partition) :: gp
    type(hpart_metrics) :: gm
    real(c_double), allocatable, target :: xy(:, :)
    integer(c_int32_t), allocatable :: gparts(:)
    integer(c_int64_t) :: i, v
    allocate (xy(2, size(xadj) - 1), gparts(size(xadj) - 1))
    do i = 1, size(xadj) - 1
      v = vtxdist(rank + 1) + i - 1
      xy(:, i) = [real(modulo(v, int(NX, c_int64_t)), c_double), real(v / NX, c_double)]
    end do
    call hpart_graph_create(MPI_COMM_WORLD, vtxdist, xadj, adjncy, g)
    call hpart_graph_set_coords(g, xy)
    call hpart_graph_options_init(gopts)
    gopts%parts = K
    gopts%method = HPART_GRAPH_GEOMETRIC_REFINE
    call hpart_partition_graph(MPI_COMM_WORLD, g, gopts, gp)
    call hpart_get_parts(gp, gparts)
    call hpart_partition_metrics(gp, gm)
    call check(all(gparts >= 0 .and. gparts < K), 'geometric parts in range')
    call check(gm%edge_cut == cut_of(gparts), 'the geometric method''s cut is the one counted here')
    call hpart_partition_free(gp)
    call hpart_graph_free(g)
  end subroutine

  ! A 16 x 12 grid split in slabs of rows: every local cell's part is where part_of_cell finds it.
  subroutine check_grid()
    type(hpart_grid) :: grid
    type(hpart_grid_options) :: gopts
    type(hpart_partition) :: gp, gp2
    integer(c_int32_t), allocatable :: cells(:)
    integer(c_int64_t) :: lo(2), hi(2), x, y, i
    integer :: found
    lo = [0_c_int64_t, 12_c_int64_t * rank / nranks]
    hi = [15_c_int64_t, 12_c_int64_t * (rank + 1) / nranks - 1]
    call hpart_grid_create([16_c_int64_t, 12_c_int64_t], lo, hi, grid)
    call hpart_grid_options_init(gopts)
    gopts%parts = 3
    call hpart_partition_grid(MPI_COMM_WORLD, grid, gopts, gp)
    allocate (cells(16 * (hi(2) - lo(2) + 1)))
    call hpart_get_parts(gp, cells)
    call check(all(cells >= 0 .and. cells < 3), 'grid cells have parts in range')
    i = 0
    do y = lo(2), hi(2)
      do x = lo(1), hi(1)
        i = i + 1
        call hpart_partition_part_of_cell(gp, [x, y], found)
        call check(found == cells(i), 'part_of_cell finds the part of a local cell')
      end do
    end do
    call check_boxes(gp, lo, hi, cells)
    call hpart_partition_free(gp)
    gopts%method = HPART_GRID_BLOCKS
    call hpart_partition_grid(MPI_COMM_WORLD, grid, gopts, gp)
    call hpart_repartition_grid(MPI_COMM_WORLD, grid, gp, 3, 0.05_c_double, gp2)
    call hpart_get_parts(gp2, cells)
    call check(all(cells >= 0 .and. cells < 3), 'repartitioned grid cells have parts in range')
    call check_boxes(gp2, lo, hi, cells)
    call hpart_partition_free(gp2)
    call hpart_partition_free(gp)
    call hpart_grid_free(grid)
  end subroutine

  ! Every local cell lies in the box of its part.
  subroutine check_boxes(gp, lo, hi, cells)
    type(hpart_partition), intent(in) :: gp
    integer(c_int64_t), intent(in) :: lo(2), hi(2)
    integer(c_int32_t), intent(in) :: cells(:)
    integer(c_int64_t) :: blo(3), bhi(3), x, y, i
    i = 0
    do y = lo(2), hi(2)
      do x = lo(1), hi(1)
        i = i + 1
        call hpart_partition_box(gp, int(cells(i)), blo, bhi)
        call check(x >= blo(1) .and. x <= bhi(1) .and. y >= blo(2) .and. y <= bhi(2), 'a cell lies in its part''s box')
      end do
    end do
  end subroutine
  ! A 12-vertex ring written as a METIS file, read on every rank, cut into 3 parts, written as a
  ! part file of 12 lines; 10 points written as text and read back.
  subroutine check_files()
    type(hpart_graph) :: ring
    type(hpart_points) :: pts
    type(hpart_partition) :: rp
    type(hpart_metrics) :: rm
    integer(c_int32_t), allocatable :: rparts(:)
    integer(c_int64_t) :: n, total
    integer :: u, i, lines, value, ios
    character(32) :: tag
    write (tag, '(a, i0)') 'f_graph_np', nranks  ! one set of files per rank count: ctest -j runs them together
    if (rank == 0) then
      open (newunit=u, file=trim(tag) // '.graph', status='replace', action='write')
      write (u, '(a)') '% a ring', '12 12'
      do i = 1, 12
        write (u, '(i0, 1x, i0)') modulo(i - 2, 12) + 1, modulo(i, 12) + 1
      end do
      close (u)
      open (newunit=u, file=trim(tag) // '.txt', status='replace', action='write')
      do i = 1, 10
        write (u, '(f6.3, 1x, f6.3)') 0.1 * i, 0.05 * i
      end do
      close (u)
    end if
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    call hpart_read_graph_metis(MPI_COMM_WORLD, trim(tag) // '.graph', ring)
    call hpart_graph_local_vertices(ring, n)
    call MPI_Allreduce(n, total, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(total == 12, 'the METIS file has 12 vertices over the ranks')
    call hpart_graph_options_init(opts)
    opts%parts = 3
    call hpart_partition_graph(MPI_COMM_WORLD, ring, opts, rp)
    call hpart_partition_metrics(rp, rm)
    call check(rm%edge_cut >= 3 .and. rm%edge_cut <= 6, 'a ring in 3 parts cuts 3 to 6 edges')
    allocate (rparts(n))
    call hpart_get_parts(rp, rparts)
    call hpart_write_parts_text(MPI_COMM_WORLD, trim(tag) // '.parts', rparts)
    call hpart_read_points_text(MPI_COMM_WORLD, trim(tag) // '.txt', pts, dim=2)
    call hpart_points_size(pts, n)
    call MPI_Allreduce(n, total, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(total == 10, 'the point file has 10 points over the ranks')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      lines = 0
      open (newunit=u, file=trim(tag) // '.parts', status='old', action='read')
      do
        read (u, *, iostat=ios) value
        if (ios /= 0) exit
        lines = lines + 1
        call check(value >= 0 .and. value < 3, 'a written part is in [0, 3)')
      end do
      close (u)
      call check(lines == 12, 'the part file has one line per vertex')
    end if
    call check_other_formats(tag, rp, rparts)
    call check_migration_i64(rparts)
    call hpart_points_free(pts)
    call hpart_partition_free(rp)
    call hpart_graph_free(ring)
  end subroutine

  ! The ring of check_files as MatrixMarket (symmetric, lower triangle) and Chaco files: 12
  ! vertices over the ranks, a cut of 3 to 6 edges in 3 parts. The ring's partition rp written as
  ! HDF5 and read back: as many parts and the same sum over the ranks (read_parts_h5's row
  ! blocks need not be the graph reader's vertex blocks).
  subroutine check_other_formats(tag, rp, rparts)
    character(*), intent(in) :: tag
    type(hpart_partition), intent(in) :: rp
    integer(c_int32_t), intent(in) :: rparts(:)
    type(hpart_graph) :: g
    type(hpart_partition) :: gp
    type(hpart_metrics) :: gm2
    integer(c_int32_t), allocatable :: back(:)
    integer(c_int64_t) :: n, total, mine(2), got(2), want(2)
    integer :: u, i, f
    if (rank == 0) then
      open (newunit=u, file=trim(tag) // '.mtx', status='replace', action='write')
      write (u, '(a)') '%%MatrixMarket matrix coordinate pattern symmetric', '12 12 12'
      write (u, '(i0, 1x, i0)') 12, 1
      do i = 2, 12
        write (u, '(i0, 1x, i0)') i, i - 1
      end do
      close (u)
      open (newunit=u, file=trim(tag) // '.chaco', status='replace', action='write')
      write (u, '(a)') '12 12'
      do i = 1, 12
        write (u, '(i0, 1x, i0)') modulo(i - 2, 12) + 1, modulo(i, 12) + 1
      end do
      close (u)
    end if
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    do f = 1, 2
      if (f == 1) call hpart_read_graph_matrix_market(MPI_COMM_WORLD, trim(tag) // '.mtx', g)
      if (f == 2) call hpart_read_graph_chaco(MPI_COMM_WORLD, trim(tag) // '.chaco', g)
      call hpart_graph_local_vertices(g, n)
      call MPI_Allreduce(n, total, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
      call check(total == 12, 'the MatrixMarket and Chaco rings have 12 vertices over the ranks')
      call hpart_partition_graph(MPI_COMM_WORLD, g, opts, gp)
      call hpart_partition_metrics(gp, gm2)
      call check(gm2%edge_cut >= 3 .and. gm2%edge_cut <= 6, 'the MatrixMarket and Chaco rings cut 3 to 6 edges')
      call hpart_partition_free(gp)
      call hpart_graph_free(g)
    end do
    call hpart_write_partition_h5(MPI_COMM_WORLD, trim(tag) // '.h5', rp)
    call hpart_read_parts_h5(MPI_COMM_WORLD, trim(tag) // '.h5', back)
    mine = [size(back, kind=c_int64_t), sum(int(back, c_int64_t))]
    call MPI_Allreduce(mine, got, 2, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    mine = [size(rparts, kind=c_int64_t), sum(int(rparts, c_int64_t))]
    call MPI_Allreduce(mine, want, 2, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(got(1) == 12 .and. all(got == want), 'the HDF5 part file reads back the ring''s parts')
  end subroutine

  ! A plan from 64-bit part ids (hpart_migration_create_i64_f, no narrowing in Fortran) sends
  ! each vertex where the 32-bit plan does.
  subroutine check_migration_i64(rparts)
    integer(c_int32_t), intent(in) :: rparts(:)
    type(hpart_migration) :: a, b
    integer(c_int64_t) :: na, nb
    integer(c_int32_t), allocatable :: da(:), db(:)
    call hpart_migration_create(MPI_COMM_WORLD, rparts, 3, a)
    call hpart_migration_create(MPI_COMM_WORLD, int(rparts, c_int64_t), 3, b)
    call hpart_migration_num_imports(a, na)
    call hpart_migration_num_imports(b, nb)
    call check(na == nb, 'the 64-bit plan imports as many')
    allocate (da(nb), db(nb))
    call hpart_migration_move(a, rparts, da)
    call hpart_migration_move(b, rparts, db)
    call check(all(da == db), 'the 64-bit plan moves the same records')
    call hpart_migration_free(a)
    call hpart_migration_free(b)
  end subroutine
end program f_graph
