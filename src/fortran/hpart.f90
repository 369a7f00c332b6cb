! hpart for Fortran: `use hpart` gives every type, constant and procedure (docs/fortran.md).
! Part ids, vertex ids and ranks are 0-based, as in C and ParMETIS with numflag 0: parts(i) of
! local object i is in [0, K). Arrays are Fortran's own (1-based) and carry their lengths.
module hpart
  use hpart_c_types
  use hpart_base, only: hpart_points, hpart_grid, hpart_graph, hpart_partition, hpart_rebalancer, &
    hpart_migration, hpart_map, hpart_last_error, hpart_status_string
  use hpart_objects
  use hpart_partitioners
  use hpart_graphs
  use hpart_dynamic
  use hpart_moves
  use hpart_assign
  implicit none
  public
end module hpart
