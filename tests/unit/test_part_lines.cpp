// The part file parser without MPI or files: what it accepts, and the line it blames.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/part_lines.hpp"

using hpart::detail::parse_part_lines;

TEST(PartLines, ReadsOneIdPerLineSkippingCommentsAndBlanks) {
  const auto r = parse_part_lines("% METIS\n0\n\n  3 \n# note\n+2\r\n1");
  ASSERT_EQ(r.bad_line, -1) << r.bad_reason;
  EXPECT_EQ(r.values, (std::vector<hpart::part_t>{0, 3, 2, 1}));
  EXPECT_EQ(r.lines, 7);  // the last line has no '\n' and still counts
}

TEST(PartLines, BlamesTheFirstBadLineAndCountsTheRest) {
  const auto r = parse_part_lines("0\n1\n1.5\nx\n2\n");
  EXPECT_EQ(r.bad_line, 2);
  EXPECT_NE(r.bad_reason.find("'1.5' is not an integer"), std::string::npos) << r.bad_reason;
  EXPECT_EQ(r.values.size(), 2u);
  EXPECT_EQ(r.lines, 5);
}

TEST(PartLines, RejectsNegativeHugeAndSeveralValues) {
  EXPECT_NE(parse_part_lines("-1\n").bad_reason.find("is negative"), std::string::npos);
  EXPECT_NE(parse_part_lines("2147483648\n").bad_reason.find("beyond 2^31 - 1"), std::string::npos);
  EXPECT_NE(parse_part_lines("1 2\n").bad_reason.find("one part id per line"), std::string::npos);
  EXPECT_EQ(parse_part_lines("2147483647\n").bad_line, -1);
}

TEST(PartLines, IdsMustBeBelowTheNumberOfPartsWhenGiven) {
  const auto r = parse_part_lines("0\n3\n4\n", 4);
  EXPECT_EQ(r.bad_line, 2);
  EXPECT_NE(r.bad_reason.find("part id 4 is not below the number of parts, 4"), std::string::npos) << r.bad_reason;
  EXPECT_EQ(parse_part_lines("0\n3\n4\n").bad_line, -1);  // no K: any id
}
