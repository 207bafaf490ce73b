# Install rules and the CMake package (find_package(ltlkit CONFIG)): ltlkit::symbolic (formulas,
# automata, algebra; no LibTorch) and ltlkit::neural (recognizers, training, verification; LibTorch).
# Only the public headers listed here are installed; the others are internal to the build.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LTLKIT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ltlkit CACHE STRING
    "Where the CMake package files of ltlkit are installed (relative to the prefix)")
# Headers keep their in-tree paths ("automata/dfa.hh") under include/ltlkit.
set(LTLKIT_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/ltlkit)

set(LTLKIT_PUBLIC_HEADERS
    base/error.hh base/file.hh base/text.hh base/checksum.hh base/json.hh
    ltl/formula.hh ltl/parser.hh ltl/printer.hh ltl/semantics.hh ltl/fragment.hh
    automata/dfa.hh automata/monitor.hh automata/regex.hh automata/dfa_json.hh automata/dot.hh automata/language.hh
    automata/algorithms.hh automata/sampler.hh automata/random.hh automata/dataset.hh automata/certificate.hh automata/window_fields.hh automata/class_id.hh
    automata/architecture.hh automata/algebra/classify.hh automata/algebra/certificate_check.hh automata/algebra/adversarial.hh
    automata/algebra/semigroup.hh automata/algebra/green.hh)
set(LTLKIT_PUBLIC_NEURAL_HEADERS
    neural/run.hh neural/pairs.hh neural/memory.hh neural/score.hh
    neural/verify/verify.hh neural/verify/profiles.hh neural/verify/report.hh neural/verify/verdict.hh
    neural/verify/figures.hh neural/verify/published.hh neural/verify/plan.hh neural/verify/cells.hh)

set(LTLKIT_SYMBOLIC_LIBS base ltl automata algebra)
# The Python module links the symbolic libraries into a shared object.
set_target_properties(${LTLKIT_SYMBOLIC_LIBS} PROPERTIES POSITION_INDEPENDENT_CODE ON)

# The package config finds the header-only dependencies by their CMake packages; headers vendored
# through LTLKIT_THIRD_PARTY have none, so such a build (the GPU machine) gets no install rules.
if(NOT nlohmann_json_FOUND OR NOT Eigen3_FOUND)
  message(STATUS "nlohmann_json or Eigen3 without a CMake package: ltlkit's install rules are left out")
  return()
endif()
set(LTLKIT_NEURAL_LIBS neural)
if(TARGET verify)
  list(APPEND LTLKIT_NEURAL_LIBS verify)
endif()

set_property(TARGET ltl PROPERTY INTERFACE_INCLUDE_DIRECTORIES
             "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>" "$<INSTALL_INTERFACE:${LTLKIT_INSTALL_INCLUDEDIR}>")
set_property(TARGET base PROPERTY INTERFACE_INCLUDE_DIRECTORIES
             "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>" "$<INSTALL_INTERFACE:${LTLKIT_INSTALL_INCLUDEDIR}>")

set(_ltlkit_libs ${LTLKIT_SYMBOLIC_LIBS})
if(LTLKIT_HAVE_TORCH)
  list(APPEND _ltlkit_libs ${LTLKIT_NEURAL_LIBS})
  # The torch target of find_dependency(Torch) carries its include folders for installed users.
  get_target_property(_torch_inc neural INTERFACE_INCLUDE_DIRECTORIES)
  set_property(TARGET neural PROPERTY INTERFACE_INCLUDE_DIRECTORIES "$<BUILD_INTERFACE:${_torch_inc}>")
  set_property(TARGET neural PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "$<BUILD_INTERFACE:${_torch_inc}>")
endif()
foreach(lib ${_ltlkit_libs})
  # libltlkit_automata.a rather than a generic libautomata.a in PREFIX/lib.
  set_target_properties(${lib} PROPERTIES OUTPUT_NAME ltlkit_${lib} EXPORT_NAME ${lib})
endforeach()
if(LTLKIT_HAVE_TORCH)
  set_target_properties(neural PROPERTIES EXPORT_NAME neural_core)  # ltlkit::neural is the umbrella
endif()

# The umbrella targets users link.
add_library(ltlkit_symbolic INTERFACE)
target_link_libraries(ltlkit_symbolic INTERFACE ${LTLKIT_SYMBOLIC_LIBS})
target_compile_features(ltlkit_symbolic INTERFACE cxx_std_20)  # the public headers are C++20
set_target_properties(ltlkit_symbolic PROPERTIES EXPORT_NAME symbolic)
add_library(ltlkit::symbolic ALIAS ltlkit_symbolic)
set(_ltlkit_umbrellas ltlkit_symbolic)
if(LTLKIT_HAVE_TORCH)
  add_library(ltlkit_neural INTERFACE)
  target_link_libraries(ltlkit_neural INTERFACE ${LTLKIT_NEURAL_LIBS} ltlkit_symbolic)
  set_target_properties(ltlkit_neural PROPERTIES EXPORT_NAME neural)
  add_library(ltlkit::neural ALIAS ltlkit_neural)
  list(APPEND _ltlkit_umbrellas ltlkit_neural)
endif()

install(TARGETS ${LTLKIT_SYMBOLIC_LIBS} ltlkit_symbolic EXPORT ltlkitSymbolicTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT ltlkitSymbolicTargets NAMESPACE ltlkit:: DESTINATION ${LTLKIT_INSTALL_CMAKEDIR})
foreach(h ${LTLKIT_PUBLIC_HEADERS})
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${h} DESTINATION ${LTLKIT_INSTALL_INCLUDEDIR}/${dir})
endforeach()
if(LTLKIT_HAVE_TORCH)
  install(TARGETS ${LTLKIT_NEURAL_LIBS} ltlkit_neural EXPORT ltlkitNeuralTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT ltlkitNeuralTargets NAMESPACE ltlkit:: DESTINATION ${LTLKIT_INSTALL_CMAKEDIR})
  foreach(h ${LTLKIT_PUBLIC_NEURAL_HEADERS})
    get_filename_component(dir ${h} DIRECTORY)
    if(EXISTS ${PROJECT_SOURCE_DIR}/${h})
      install(FILES ${PROJECT_SOURCE_DIR}/${h} DESTINATION ${LTLKIT_INSTALL_INCLUDEDIR}/${dir})
    endif()
  endforeach()
endif()
foreach(exe ltlkit ltlkit-neural)
  if(TARGET ${exe})
    install(TARGETS ${exe} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ltlkitConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ltlkitConfig.cmake
                              INSTALL_DESTINATION ${LTLKIT_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ltlkitConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ltlkitConfig.cmake ${PROJECT_BINARY_DIR}/ltlkitConfigVersion.cmake
        DESTINATION ${LTLKIT_INSTALL_CMAKEDIR})
set(LTLKIT_INSTALL_RULES ON)
