// The METIS/Chaco and MatrixMarket line parsers without MPI or files: what they accept, and the
// line and reason they blame.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/graph_lines.hpp"
#include "io/matrix_market_lines.hpp"
#include "io/vertex_scan.hpp"

using namespace hpart::detail;

namespace {

GraphHeader header(const std::string& line, GraphDialect d = GraphDialect::metis) {
  GraphHeader h;
  const std::string why = parse_graph_header(line, d, h);
  EXPECT_EQ(why, "") << line;
  return h;
}

std::string header_error(const std::string& line, GraphDialect d = GraphDialect::metis) {
  GraphHeader h;
  return parse_graph_header(line, d, h);
}

// Parses `body` (the lines after a header) as the whole file's vertex lines.
ScannedRows<hpart::gid_t> body(const std::string& head, const std::string& text, GraphDialect d = GraphDialect::metis) {
  return parse_vertex_lines(text, 0, header(head, d), 0, d);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A parse result (ScannedRows<hpart::gid_t> or MatrixEntries) blames buffer line `line` for `reason`.
template <class Parsed>
void expect_blame(const Parsed& r, long long line, const std::string& reason) {
  EXPECT_EQ(r.bad_line, line) << reason;
  EXPECT_TRUE(contains(r.bad_reason, reason)) << "expected '" << reason << "', got '" << r.bad_reason << "'";
}

}  // namespace

TEST(GraphLines, CensusFindsTheHeaderAfterCommentsAndBlankLines) {
  const std::string text = "% a comment\n\n  % indented comment\n4 3\n2\n1 3\n";
  const LineCensus c = census_lines(text);
  EXPECT_EQ(c.lines, 6);
  EXPECT_EQ(c.first_record, 3);
  EXPECT_EQ(line_at(text, 3), "4 3");
  EXPECT_EQ(census_lines("").lines, 0);
  EXPECT_EQ(census_lines("% only\n\n").first_record, -1);
  EXPECT_EQ(census_lines("1 0").lines, 1);  // a last line without '\n' counts
}

TEST(GraphLines, BlankLinesAreVerticesButCommentsAreNot) {
  const std::string text = "2\n\n% comment\n1\n";
  EXPECT_EQ(count_body_lines(text, 0, true), 3);
  EXPECT_EQ(count_body_lines(text, 0, false), 2);
  EXPECT_EQ(count_body_lines(text, 2, true), 1);
}

TEST(GraphLines, HeaderFormats) {
  GraphHeader h = header("4720 13722");
  EXPECT_EQ(h.vertices, 4720);
  EXPECT_EQ(h.edges, 13722);
  EXPECT_FALSE(h.vertex_weights || h.edge_weights || h.leading_value);
  EXPECT_EQ(h.ncon, 1);
  h = header(" 766  1314 010 2\r");
  EXPECT_TRUE(h.vertex_weights);
  EXPECT_FALSE(h.edge_weights);
  EXPECT_EQ(h.ncon, 2);
  h = header("3 2 1");  // fmt digits are right-aligned: "1" = "001", edge weights
  EXPECT_TRUE(h.edge_weights);
  EXPECT_FALSE(h.vertex_weights);
  h = header("3 2 111");
  EXPECT_TRUE(h.leading_value && h.vertex_weights && h.edge_weights);
  h = header("0 0");
  EXPECT_EQ(h.vertices, 0);
}

TEST(GraphLines, HeaderErrors) {
  EXPECT_TRUE(contains(header_error("4"), "a METIS header is 'n m [fmt [ncon]]'"));
  EXPECT_TRUE(contains(header_error("4 3 1 1 7"), "header has 5 values"));
  EXPECT_TRUE(contains(header_error("4 x"), "edge count m: 'x' is not a number"));
  EXPECT_TRUE(contains(header_error("4.5 3"), "'4.5' is not an integer"));
  EXPECT_TRUE(contains(header_error("-4 3"), "must be in [0, 2^62]"));
  EXPECT_TRUE(contains(header_error("4 3 2"), "fmt '2' must be up to three 0/1 digits"));
  EXPECT_TRUE(contains(header_error("4 3 1011"), "must be up to three 0/1 digits"));
  EXPECT_TRUE(contains(header_error("4 3 001 2"), "ncon 2 given, but fmt 001 has no vertex weights"));
  EXPECT_TRUE(contains(header_error("4 3 010 0"), "ncon = 0 must be >= 1"));
  EXPECT_TRUE(contains(header_error("4 3 1 1", GraphDialect::chaco), "a Chaco header is 'n m [fmt]'"));
  EXPECT_TRUE(contains(header_error("99999999999999999999 1"), "is out of range"));
}

TEST(GraphLines, PlainAdjacencyIsConvertedToZeroBasedIds) {
  // The 4-cycle 1-2-3-4 plus an isolated vertex 5 given by an empty line.
  const ScannedRows<hpart::gid_t> r = body("5 4", "2 4\n1 3\n% comment in the body\n2 4\n3 1\n\n");
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  ASSERT_EQ(r.vertices(), 5u);
  EXPECT_EQ(r.xadj, (std::vector<std::int64_t>{0, 2, 4, 6, 8, 8}));
  EXPECT_EQ(r.adjncy, (std::vector<hpart::gid_t>{1, 3, 0, 2, 1, 3, 2, 0}));
  EXPECT_EQ(r.lines(), (std::vector<long long>{0, 1, 3, 4, 5}));
  EXPECT_TRUE(r.adjwgt.empty());
  EXPECT_TRUE(r.vwgt.empty());
}

TEST(GraphLines, WeightsSizesAndMultipleConstraints) {
  // fmt 111, ncon 2: size, two vertex weights, then (neighbour, weight) pairs.
  const ScannedRows<hpart::gid_t> r = body("3 2 111 2", "9 1 2 2 5\n9 3 4 1 5 3 6\n9 0 0 2 6\n");
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.vwgt, (std::vector<std::int64_t>{1, 2, 3, 4, 0, 0}));
  EXPECT_EQ(r.adjncy, (std::vector<hpart::gid_t>{1, 0, 2, 1}));
  EXPECT_EQ(r.adjwgt, (std::vector<std::int64_t>{5, 5, 6, 6}));
}

TEST(GraphLines, ChacoLinesMayStartWithTheirVertexNumber) {
  const ScannedRows<hpart::gid_t> r = body("2 1 100", "1 2\n2 1\n", GraphDialect::chaco);
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.adjncy, (std::vector<hpart::gid_t>{1, 0}));
  const ScannedRows<hpart::gid_t> bad = body("2 1 100", "1 2\n3 1\n", GraphDialect::chaco);
  EXPECT_EQ(bad.bad_line, 1);
  EXPECT_TRUE(contains(bad.bad_reason, "starts with vertex number 3, but it is the line of vertex 2")) << bad.bad_reason;
}

TEST(GraphLines, ABufferInTheMiddleOfTheFileKnowsItsFirstVertex) {
  // Vertex 3 (0-based 2) of a 4-vertex path: listing itself is caught with the global number.
  const ScannedRows<hpart::gid_t> r = parse_vertex_lines("2 4\n4\n", 0, header("4 3"), 2);
  EXPECT_EQ(r.bad_line, 1);
  EXPECT_TRUE(contains(r.bad_reason, "vertex 4 lists itself")) << r.bad_reason;
  EXPECT_EQ(r.vertices(), 1u);
}

TEST(GraphLines, BadNumbersAndIds) {
  expect_blame(body("3 2", "2\n1 x\n"), 1, "neighbour 2: 'x' is not a number");
  expect_blame(body("3 2", "2\n1 2.5\n"), 1, "'2.5' is not an integer");
  expect_blame(body("3 2", "2 4\n"), 0, "neighbour 4 is out of range [1, 3]");
  expect_blame(body("3 2", "0\n"), 0, "neighbour 0 is out of range [1, 3]");
  expect_blame(body("3 2", "2\n2\n"), 1, "vertex 2 lists itself");
}

TEST(GraphLines, BadWeights) {
  expect_blame(body("2 1 1", "2 0\n"), 0, "edge weight 0 (to neighbour 2) must be > 0");
  expect_blame(body("2 1 1", "2 -3\n"), 0, "edge weight -3 (to neighbour 2) must be > 0");
  expect_blame(body("2 1 1", "2\n"), 0, "neighbour 2 has no edge weight");
  expect_blame(body("2 1 10", "-1 2\n"), 0, "vertex weight -1 is negative");
}

TEST(GraphLines, MissingLeadingValuesAndExtraLines) {
  expect_blame(body("2 1 010 2", "1\n"), 0, "has 1 vertex weight, but the header says 2 per vertex");
  expect_blame(body("2 1 010", "\n"), 0, "has 0 vertex weights");
  expect_blame(body("2 1 100", "\n"), 0, "starts with its vertex size");
  expect_blame(body("2 1", "2\n1\n1\n"), 2, "more vertex lines than the header's n = 2");
}

TEST(GraphLines, AcceptsWindowsLineEnds) {
  const std::string text = "2 1\r\n2\r\n\r\n";  // vertex 2 is an empty line ("\r")
  EXPECT_EQ(census_lines(text).first_record, 0);
  const ScannedRows<hpart::gid_t> r = parse_vertex_lines(text, 1, header("2 1\r"), 0);
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.vertices(), 2u);
  EXPECT_EQ(r.adjncy, (std::vector<hpart::gid_t>{1}));
}

TEST(GraphLines, BlankAndCommentLinesAfterTheLastVertexAreIgnored) {
  const ScannedRows<hpart::gid_t> r = body("2 1", "2\n1\n\n% trailing\n   \n");
  EXPECT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.vertices(), 2u);
}

TEST(GraphLines, ParsingStopsAtTheFirstBadLineAndKeepsTheRowsBefore) {
  const ScannedRows<hpart::gid_t> r = body("3 2 1", "2 1\n1 1 3 x\n2 1\n");
  EXPECT_EQ(r.bad_line, 1);
  EXPECT_EQ(r.vertices(), 1u);
  EXPECT_EQ(r.adjncy.size(), r.adjwgt.size());
  EXPECT_EQ(r.xadj.back(), static_cast<std::int64_t>(r.adjncy.size()));
}

TEST(MatrixMarketLines, Banners) {
  MatrixMarketBanner b;
  EXPECT_EQ(parse_matrix_market_banner("%%MatrixMarket matrix coordinate real symmetric", b), "");
  EXPECT_EQ(b.values_per_entry, 1);
  EXPECT_EQ(parse_matrix_market_banner("%%matrixmarket MATRIX Coordinate pattern general\r", b), "");
  EXPECT_EQ(b.values_per_entry, 0);
  EXPECT_EQ(parse_matrix_market_banner("%%MatrixMarket matrix coordinate complex hermitian", b), "");
  EXPECT_EQ(b.values_per_entry, 2);
  EXPECT_TRUE(contains(parse_matrix_market_banner("%%MatrixMarket matrix array real general", b), "'array'"));
  EXPECT_TRUE(contains(parse_matrix_market_banner("4 3", b), "not a MatrixMarket file"));
  EXPECT_TRUE(contains(parse_matrix_market_banner("%%MatrixMarket matrix coordinate quaternion general", b),
                       "field 'quaternion' is not supported"));
  EXPECT_TRUE(contains(parse_matrix_market_banner("%%MatrixMarket matrix coordinate real", b), "5 words"));
}

TEST(MatrixMarketLines, SizeLine) {
  MatrixMarketSize s;
  EXPECT_EQ(parse_matrix_market_size("5 5 8", s), "");
  EXPECT_EQ(s.rows, 5);
  EXPECT_EQ(s.entries, 8);
  EXPECT_TRUE(contains(parse_matrix_market_size("5 6 8", s), "the matrix is 5 x 6: a graph needs a square matrix"));
  EXPECT_TRUE(contains(parse_matrix_market_size("5 5", s), "'rows cols nnz'"));
  EXPECT_TRUE(contains(parse_matrix_market_size("5 5 x", s), "nnz: 'x' is not a number"));
}

TEST(MatrixMarketLines, EntriesDropTheDiagonalAndCountIt) {
  MatrixMarketBanner b;
  ASSERT_EQ(parse_matrix_market_banner("%%MatrixMarket matrix coordinate real general", b), "");
  MatrixMarketSize s;
  ASSERT_EQ(parse_matrix_market_size("3 3 4", s), "");
  const MatrixEntries e = parse_matrix_market_entries("1 1 2.0\n2 1 -1\n\n% c\n3 2 +1e3\n1 3 7\n", 0, b, s, 0);
  ASSERT_EQ(e.bad_line, -1) << e.bad_reason;
  EXPECT_EQ(e.entries, 4);
  EXPECT_EQ(e.pairs, (std::vector<hpart::gid_t>{1, 0, 2, 1, 0, 2}));
}

TEST(MatrixMarketLines, EntryErrors) {
  MatrixMarketBanner real, pattern;
  ASSERT_EQ(parse_matrix_market_banner("%%MatrixMarket matrix coordinate real general", real), "");
  ASSERT_EQ(parse_matrix_market_banner("%%MatrixMarket matrix coordinate pattern general", pattern), "");
  MatrixMarketSize s;
  ASSERT_EQ(parse_matrix_market_size("3 3 2", s), "");
  auto entries = [&](const MatrixMarketBanner& b, const char* text, long long first = 0) {
    return parse_matrix_market_entries(text, 0, b, s, first);
  };
  expect_blame(entries(real, "1 4 1.0\n"), 0, "column index 4 is out of range [1, 3]");
  expect_blame(entries(real, "0 1 1.0\n"), 0, "row index 0 is out of range");
  expect_blame(entries(real, "1 x 1.0\n"), 0, "column index: 'x' is not a number");
  expect_blame(entries(real, "1 2 abc\n"), 0, "value 'abc' is not a number");
  expect_blame(entries(real, "1 2\n"), 0, "has 0 values after i j; the banner's field needs 1");
  // The value count follows the field; nnz bounds the entries wherever the buffer starts.
  expect_blame(entries(pattern, "1 2 1.0\n"), 0, "has 1 value after i j; the banner's field needs 0");
  expect_blame(entries(pattern, "1 2\n2 3\n3 1\n"), 2, "more entry lines than the size line's nnz = 2");
  expect_blame(entries(pattern, "1 2\n", 2), 0, "more entry lines");
}
