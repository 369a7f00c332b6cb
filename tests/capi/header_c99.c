/* hpart.h as strict C99: compiled by the ctest capi.header_c99 with
 * mpicc -std=c99 -pedantic -Wall -Wextra -Werror. Uses every struct and a few declarations so
 * that a C++-only construct anywhere in the header fails here. */
#include <hpart/hpart.h>

int main(void) {
  hpart_point_options po;
  hpart_hier_point_options ho;
  hpart_grid_options go;
  hpart_graph_options gro;
  hpart_graph_repart_options rpo;
  hpart_rebalance_options rbo;
  hpart_metrics m;
  hpart_graph_metrics gm;
  hpart_observation ob;
  hpart_decision d;
  hpart_rebalance_stats st;
  hpart_status (*f)(MPI_Comm, const hpart_points*, const hpart_point_options*, hpart_partition**) =
      hpart_partition_points;
  (void)po, (void)ho, (void)go, (void)gro, (void)rpo, (void)rbo, (void)m, (void)gm, (void)ob, (void)d, (void)st;
  return f == 0 ? 1 : (int)HPART_OK;
}
