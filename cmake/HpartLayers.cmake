# The library's layers. Each layer is one CMake OBJECT target, hpart_<layer>, over its own folders
# of src/ and the public headers it declares; the objects of all of them make up libhpart.
#
#   hpart_layer(NAME FOLDERS f... HEADERS h... DEPENDS lower-layer... SOURCES file... [TARGET t])
#
# A layer sees only its own folders and headers and those of the layers below it: its only
# include directory is a folder of symbolic links to exactly those (build/layers/NAME), so an
# include of a higher layer's file does not compile. build/layers.txt lists the layers for
# tests/layering/check_layers.py, which checks the same rule on every file, compiled or not.

file(WRITE ${PROJECT_BINARY_DIR}/layers.txt "# layer | own folders | own public headers | layers it may include (transitive)\n")
set_property(GLOBAL PROPERTY HPART_LAYER_OBJECTS "")

function(hpart_layer name)
  cmake_parse_arguments(L "" "TARGET" "FOLDERS;HEADERS;DEPENDS;SOURCES" ${ARGN})
  set(visible ${name})
  foreach(dep IN LISTS L_DEPENDS)
    get_property(dep_visible GLOBAL PROPERTY HPART_LAYER_VISIBLE_${dep})
    if(NOT dep_visible)
      message(FATAL_ERROR "hpart_layer(${name}): layer '${dep}' must be declared before it")
    endif()
    list(APPEND visible ${dep_visible})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  set_property(GLOBAL PROPERTY HPART_LAYER_VISIBLE_${name} ${visible})
  set_property(GLOBAL PROPERTY HPART_LAYER_FOLDERS_${name} ${L_FOLDERS})
  set_property(GLOBAL PROPERTY HPART_LAYER_HEADERS_${name} ${L_HEADERS})

  set(farm ${PROJECT_BINARY_DIR}/layers/${name})
  file(REMOVE_RECURSE ${farm})
  file(MAKE_DIRECTORY ${farm}/hpart)
  foreach(layer IN LISTS visible)
    get_property(folders GLOBAL PROPERTY HPART_LAYER_FOLDERS_${layer})
    get_property(headers GLOBAL PROPERTY HPART_LAYER_HEADERS_${layer})
    foreach(folder IN LISTS folders)
      file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${folder} ${farm}/${folder} SYMBOLIC)
    endforeach()
    foreach(header IN LISTS headers)
      if(EXISTS ${PROJECT_SOURCE_DIR}/include/hpart/${header})
        file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/hpart/${header} ${farm}/hpart/${header} SYMBOLIC)
      else()
        file(CREATE_LINK ${PROJECT_BINARY_DIR}/include/hpart/${header} ${farm}/hpart/${header} SYMBOLIC)
      endif()
    endforeach()
  endforeach()

  if(L_TARGET)  # a layer that is its own library (hpart_tensor): only its include directory
    if(TARGET ${L_TARGET})  # (declared without its target when it is not built: Kokkos not found)
      target_include_directories(${L_TARGET} PRIVATE ${farm})
    endif()
  else()
    add_library(hpart_${name} OBJECT ${L_SOURCES})
    target_include_directories(hpart_${name} PRIVATE ${farm})
    target_link_libraries(hpart_${name} PRIVATE MPI::MPI_C OpenMP::OpenMP_CXX hpart_build_flags)
    set_target_properties(hpart_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_features(hpart_${name} PRIVATE cxx_std_20)
    set_property(GLOBAL APPEND PROPERTY HPART_LAYER_OBJECTS $<TARGET_OBJECTS:hpart_${name}>)
  endif()
  string(REPLACE ";" " " f "${L_FOLDERS}")
  string(REPLACE ";" " " h "${L_HEADERS}")
  string(REPLACE ";" " " v "${visible}")
  file(APPEND ${PROJECT_BINARY_DIR}/layers.txt "${name} | ${f} | ${h} | ${v}\n")
endfunction()
