#pragma once
// The checks every picture writer shares: its options (max_side, node_of_part), the memory the
// picture needs, the options every rank must pass alike, and the closing agreement (a bad
// argument first, then a build without PNG), so each writer throws the same error on every rank
// before it draws.
#include <string>

#include "core/agreement.hpp"
#include "hpart/comm.hpp"
#include "hpart/io.hpp"

namespace hpart::detail {

// "" or what is wrong with the options, or with the memory a picture of max_side^2 pixels at
// bytes_per_pixel on this rank needs.
std::string check_picture(const PictureOptions& options, int num_parts, double bytes_per_pixel);

// Collective: adds the options to `args`, prefixes a problem with `function`'s name, and agrees;
// when every rank is fine but hpart has no PNG, throws unsupported ("hpart was built without PNG").
void agree_picture(const Comm& comm, Replicated& args, const PictureOptions& options, const char* function,
                   std::string problem);

}  // namespace hpart::detail
