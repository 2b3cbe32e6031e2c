# Eigen aligns its heap storage, and frees it, by a rule that depends on the instruction set
# a file is compiled for: plain malloc at 16 bytes (x86-64's baseline, SSE), its own aligned
# blocks at 32 (AVX) or 64 (AVX-512). The core library, the kits, the library API and a
# consumer's files hand Eigen objects to each other, so they must agree; no Eigen setting
# makes the two kinds of block compatible (EIGEN_MAX_ALIGN_BYTES bounds the layout, not the
# heap's rule: Eigen 3.4 still allocates at the ideal alignment). The libraries' value is
# recorded in an installed header, daekit/eigen_build.hpp, which daekit/eigen_abi.hpp
# compares with the consumer's when it compiles.
include(CheckCXXSourceCompiles)
include(CMakePushCheckState)
# The check's settings stay here: included at the top level, they would reach later checks.
cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_QUIET ON)
set(CMAKE_REQUIRED_LIBRARIES Eigen3::Eigen)
set(CMAKE_REQUIRED_FLAGS "")
if(DAEKIT_NATIVE)
  set(CMAKE_REQUIRED_FLAGS -march=native)
endif()
# The flags are part of the cached result's name: a reconfiguration with others checks again.
string(MD5 daekit_eigen_flags_key "${CMAKE_CXX_FLAGS} ${CMAKE_REQUIRED_FLAGS}")
unset(DAEKIT_EIGEN_DEFAULT_ALIGN_BYTES)
foreach(bytes 16 32 64)
  check_cxx_source_compiles("#include <Eigen/Core>
#if EIGEN_DEFAULT_ALIGN_BYTES != ${bytes}
#error other alignment
#endif
int main() { return 0; }" DAEKIT_EIGEN_ALIGN_${bytes}_${daekit_eigen_flags_key})
  if(DAEKIT_EIGEN_ALIGN_${bytes}_${daekit_eigen_flags_key})
    set(DAEKIT_EIGEN_DEFAULT_ALIGN_BYTES ${bytes})
  endif()
endforeach()
cmake_pop_check_state()
if(NOT DEFINED DAEKIT_EIGEN_DEFAULT_ALIGN_BYTES)
  message(FATAL_ERROR "could not tell how Eigen aligns its storage with these compiler flags")
endif()
set(DAEKIT_GENERATED_INCLUDE_DIR ${CMAKE_BINARY_DIR}/generated/include)
configure_file(${CMAKE_CURRENT_LIST_DIR}/eigen_build.hpp.in ${DAEKIT_GENERATED_INCLUDE_DIR}/daekit/eigen_build.hpp @ONLY)
