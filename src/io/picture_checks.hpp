#pragma once
// The checks every picture writer shares: its options (max_side, node_of_part), the memory the
// picture needs, the options every rank must pass alike, and the closing agreement (a bad
// argument first, then a build without PNG), so each writer throws the same error on every rank
// before it draws.
#include <span>
#include <string>

#include "core/agreement.hpp"
#include "hpart/comm.hpp"
#include "hpart/io.hpp"
#include "hpart/types.hpp"

namespace hpart::detail {

// "" or what is wrong with the options, or with the memory a picture of max_side^2 pixels at
// bytes_per_pixel on this rank needs.
std::string check_picture(const PictureOptions& options, int num_parts, double bytes_per_pixel);

// Collective: adds the options to `args`, prefixes a problem with `function`'s name, and agrees;
// when every rank is fine but hpart has no PNG, throws unsupported ("hpart was built without PNG").
void agree_picture(const Comm& comm, Replicated& args, const PictureOptions& options, const char* function,
                   std::string problem);

// Collective: the checks of a picture of `count` points coloured by part (`problem`: what the
// caller found wrong with the points first, or ""): one part id per point in [0, num_parts)
// (`objects` names them in the message: "points", "local vertices"), the options and the memory
// (8-byte keys per point and pixel on every rank; rank 0 also the parts, colours and canvas),
// then agree_picture over the path, num_parts and dim.
void agree_point_picture(const Comm& comm, const std::string& path, std::string problem, std::size_t count,
                         const char* objects, std::span<const part_t> parts, int num_parts, int dim,
                         const PictureOptions& options, const char* function);

}  // namespace hpart::detail
