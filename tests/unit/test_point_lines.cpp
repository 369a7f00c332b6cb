// The text point parser without MPI or files: formats it accepts, and the line it blames.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "io/point_lines.hpp"

using hpart::detail::data_line_index;
using hpart::detail::parse_point_lines;

TEST(PointLines, ParsesBlankCommaAndTabSeparatedValues) {
  const auto r = parse_point_lines("1 2 3\n4,5,6\n7\t8\t 9\n+1e-3 -2.5E2 .5\n");
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.columns, 3);
  EXPECT_EQ(r.lines, 4);
  EXPECT_EQ(r.data_lines, 4);
  const std::vector<double> want{1, 2, 3, 4, 5, 6, 7, 8, 9, 1e-3, -250, 0.5};
  EXPECT_EQ(r.values, want);
}

TEST(PointLines, SkipsCommentsAndBlankLinesButCountsThem) {
  const auto r = parse_point_lines("# header\n\n   \n% matrix-market style\n1 2\n\n3 4");
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.lines, 7);  // the last line has no '\n' and still counts
  EXPECT_EQ(r.data_lines, 2);
  EXPECT_EQ(r.first_data_line, 4);
  EXPECT_EQ(r.values, (std::vector<double>{1, 2, 3, 4}));
}

TEST(PointLines, AcceptsWindowsLineEnds) {
  const auto r = parse_point_lines("1 2\r\n3 4\r\n");
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.values, (std::vector<double>{1, 2, 3, 4}));
}

TEST(PointLines, EmptyBufferHasNoLines) {
  const auto r = parse_point_lines("");
  EXPECT_EQ(r.lines, 0);
  EXPECT_EQ(r.data_lines, 0);
  EXPECT_EQ(r.first_data_line, -1);
}

TEST(PointLines, BlamesTheFirstMalformedLineAndStillCountsAllLines) {
  const auto r = parse_point_lines("1 2\n3 x\n5 6\n7\n");
  EXPECT_EQ(r.bad_line, 1);
  EXPECT_NE(r.bad_reason.find("'x' is not a number"), std::string::npos) << r.bad_reason;
  EXPECT_EQ(r.lines, 4);
  EXPECT_EQ(r.data_lines, 1);
  EXPECT_EQ(r.values.size(), 2u);  // the bad line's values are not kept
}

TEST(PointLines, RejectsColumnCountChanges) {
  const auto r = parse_point_lines("1 2 3\n4 5\n");
  EXPECT_EQ(r.bad_line, 1);
  EXPECT_NE(r.bad_reason.find("has 2 values"), std::string::npos) << r.bad_reason;
}

TEST(PointLines, RejectsNonFiniteAndOutOfRangeValues) {
  for (const char* text : {"1 nan\n", "1 inf\n", "1 -inf\n", "1 1e999\n"}) {
    const auto r = parse_point_lines(text);
    EXPECT_EQ(r.bad_line, 0) << text;
  }
}

TEST(PointLines, ValuesBelowTheSmallestDoubleUnderflowToZero) {
  // As strtod reads them: the nearest double. Denormals are kept exactly; only overflow is an error.
  const auto r = parse_point_lines("1e-400 -1e-400 0.0000001e-320 4e-320 1e-300 1e308\n");
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  ASSERT_EQ(r.values.size(), 6u);
  EXPECT_EQ(r.values[0], 0.0);
  EXPECT_TRUE(std::signbit(r.values[1]));
  EXPECT_EQ(r.values[2], 0.0);
  EXPECT_EQ(r.values[3], 4e-320);
  EXPECT_EQ(r.values[5], 1e308);
  for (const char* text : {"1 1e309\n", "1 -1e400\n", "1 100000000000000000000e300\n", "1 1e99999999999999999999\n"}) {
    const auto bad = parse_point_lines(text);
    EXPECT_EQ(bad.bad_line, 0) << text;
    EXPECT_NE(bad.bad_reason.find("is out of range (beyond +-1.8e308)"), std::string::npos) << bad.bad_reason;
  }
  EXPECT_EQ(parse_point_lines("1 1e-99999999999999999999\n").values, (std::vector<double>{1, 0}));
}

TEST(PointLines, RejectsTrailingGarbageInANumber) {
  for (const char* text : {"1 2x\n", "1 2.0.0\n", "1 --2\n", "1 2;3\n"}) {
    const auto r = parse_point_lines(text);
    EXPECT_EQ(r.bad_line, 0) << text;
  }
}

TEST(PointLines, FindsTheLineOfTheKthPoint) {
  const std::string text = "# c\n1 2\n\n3 4\n5 6\n";
  EXPECT_EQ(data_line_index(text, 0), 1);
  EXPECT_EQ(data_line_index(text, 1), 3);
  EXPECT_EQ(data_line_index(text, 2), 4);
  EXPECT_EQ(data_line_index(text, 3), -1);
}

// --- column headers (issue 25): a file may name its columns, so 3 columns are not a guess -----

using hpart::detail::first_record_line;
using hpart::detail::parse_column_header;

TEST(PointLines, ColumnHeadersNameXYZW) {
  const auto xyw = parse_column_header("# x y w");
  EXPECT_EQ(xyw.columns, 3);
  EXPECT_EQ(xyw.dim, 2);
  EXPECT_TRUE(xyw.weighted);
  EXPECT_EQ(xyw.names(), "x y w");
  const auto xyz = parse_column_header("X,Y,Z\r");
  EXPECT_EQ(xyz.columns, 3);
  EXPECT_EQ(xyz.dim, 3);
  EXPECT_FALSE(xyz.weighted);
  EXPECT_EQ(parse_column_header("% x y z w").columns, 4);
  EXPECT_EQ(parse_column_header("x y").columns, 2);
  // Not headers: other names, other orders, numbers, comments that say more.
  for (const char* line : {"# y x", "# x y q", "# x y z w v", "1 2 3", "# points", "#", "", "# x y, weights"})
    EXPECT_EQ(parse_column_header(line).columns, 0) << "'" << line << "'";
}

TEST(PointLines, AHeaderIsSkippedAndMayFollowComments) {
  const std::string text = "% made by hand\n\nx y w\n1 2 3\n4 5 6\n";
  EXPECT_EQ(first_record_line(text), 2);
  const auto r = parse_point_lines(text, 2);
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.data_lines, 2);
  EXPECT_EQ(r.first_data_line, 3);
  EXPECT_EQ(data_line_index(text, 1, 2), 4);
  // Without skipping it, a header that is no comment is a malformed point line.
  EXPECT_EQ(parse_point_lines(text).bad_line, 2);
  EXPECT_EQ(first_record_line("# c\n\n1 2\n"), 2);  // no header: the first point line
  EXPECT_EQ(first_record_line("# c\n\n"), -1);
}
