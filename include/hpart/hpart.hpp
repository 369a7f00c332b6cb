#pragma once
// Everything a user of hpart includes.
#include "hpart/box.hpp"
#include "hpart/comm.hpp"
#include "hpart/error.hpp"
#include "hpart/grid.hpp"
#include "hpart/io.hpp"
#include "hpart/migration.hpp"
#include "hpart/options.hpp"
#include "hpart/partition.hpp"
#include "hpart/point_set.hpp"
#include "hpart/sfc.hpp"
#include "hpart/types.hpp"
#include "hpart/version.hpp"
