#include <gtest/gtest.h>
TEST(Multilevel, Placeholder) {}
