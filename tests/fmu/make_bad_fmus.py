#!/usr/bin/env python3
"""Broken FMUs for the error tests, each with one defect, made from a good binary and its
modelDescription.xml:

  not_a_zip.fmu        a text file
  no_description.fmu   a zip with the binary but no modelDescription.xml
  cosim_only.fmu       a description with only a CoSimulation interface
  wrong_platform.fmu   the binary only under binaries/win64/
  traversal.fmu        a good FMU plus an entry named ../daekit_escaped.txt
  fmi1.fmu             fmiVersion="1.0"
  wrong_guid.fmu       a guid the binary does not know (it refuses to instantiate)
  bad_xml.fmu          a description that is not well-formed XML
  array_sizes.fmu      an FMI 3.0 array state whose derivative has another size
  array_dimension.fmu  an FMI 3.0 array whose Dimension names no variable
  missing_function.fmu an FMI 3.0 description over the FMI 2.0 binary (no fmi3 functions)
  not_loading.fmu      a "binary" that is a text file
  many_indicators.fmu  numberOfEventIndicators="1000000000000"
  negative_indicators.fmu numberOfEventIndicators="-1"
  negative_reference.fmu  a valueReference of -1
  own_state.fmu        a derivative that names itself as its state
  state_twice.fmu      two derivatives of one state
  zip_bomb.fmu         a good FMU plus a resource of 64 MiB of zeros (compressed 1000 times)
  large.fmu            a good FMU plus 3 MiB of incompressible resources (refused below the
                       limit DAEKIT_FMU_MAX_UNPACKED_MB, taken at the default)

Usage: make_bad_fmus.py OUT_DIR BINARY DESCRIPTION
"""
import os
import sys
import zipfile


def pack(path, entries, compression=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in entries:
            z.writestr(name, data)


def main():
    out, binary_path, description_path = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    binary = open(binary_path, "rb").read()
    description = open(description_path, encoding="utf-8").read()
    identifier = os.path.splitext(os.path.basename(binary_path))[0]
    so = f"binaries/linux64/{identifier}.so"

    # Declared counts and references the standard's rules forbid (FMI 2.0).
    for name, old, new in [
            ("many_indicators", 'numberOfEventIndicators="0"', 'numberOfEventIndicators="1000000000000"'),
            ("negative_indicators", 'numberOfEventIndicators="0"', 'numberOfEventIndicators="-1"'),
            ("negative_reference", 'name="eps" valueReference="4"', 'name="eps" valueReference="-1"'),
            ("own_state", '<Real derivative="1"/>', '<Real derivative="3"/>'),
            ("state_twice", '<Real derivative="2"/>', '<Real derivative="1"/>')]:
        assert old in description, name
        pack(os.path.join(out, name + ".fmu"), [("modelDescription.xml", description.replace(old, new)), (so, binary)])
    pack(os.path.join(out, "zip_bomb.fmu"),
         [("modelDescription.xml", description), (so, binary), ("resources/zeros.bin", bytes(64 << 20))],
         zipfile.ZIP_DEFLATED)
    pack(os.path.join(out, "large.fmu"),
         [("modelDescription.xml", description), (so, binary), ("resources/noise.bin", os.urandom(3 << 20))])
    with open(os.path.join(out, "not_a_zip.fmu"), "w") as f:
        f.write("this is not a zip archive\n")
    pack(os.path.join(out, "no_description.fmu"), [(so, binary)])
    me = description[description.index("<ModelExchange"):description.index("/>", description.index("<ModelExchange")) + 2]
    cosim = description.replace(me, me.replace("<ModelExchange", "<CoSimulation").replace(
        " providesDirectionalDerivative=\"true\"", "").replace(" completedIntegratorStepNotNeeded=\"true\"", ""))
    pack(os.path.join(out, "cosim_only.fmu"), [("modelDescription.xml", cosim), (so, binary)])
    pack(os.path.join(out, "wrong_platform.fmu"),
         [("modelDescription.xml", description), (f"binaries/win64/{identifier}.dll", binary)])
    pack(os.path.join(out, "traversal.fmu"),
         [("modelDescription.xml", description), (so, binary), ("../daekit_escaped.txt", "escaped\n")])
    pack(os.path.join(out, "fmi1.fmu"),
         [("modelDescription.xml", description.replace('fmiVersion="2.0"', 'fmiVersion="1.0"')), (so, binary)])
    guid_start = description.index('guid="') + 6
    guid_end = description.index('"', guid_start)
    wrong = description[:guid_start] + "{00000000-0000-0000-0000-000000000000}" + description[guid_end:]
    pack(os.path.join(out, "wrong_guid.fmu"), [("modelDescription.xml", wrong), (so, binary)])
    pack(os.path.join(out, "bad_xml.fmu"), [("modelDescription.xml", description[: len(description) // 2]), (so, binary)])
    fmi3 = f"""<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Broken3" instantiationToken="{{0}}">
  <ModelExchange modelIdentifier="{identifier}"/>
  <ModelVariables>
    <Float64 name="x" valueReference="0" causality="local" variability="continuous" initial="exact" start="1">
      ARRAY</Float64>
    <Float64 name="der(x)" valueReference="1" causality="local" variability="continuous" derivative="0">
      ARRAY</Float64>
  </ModelVariables>
  <ModelStructure><ContinuousStateDerivative valueReference="1"/></ModelStructure>
</fmiModelDescription>
"""
    so3 = f"binaries/x86_64-linux/{identifier}.so"
    pack(os.path.join(out, "array_sizes.fmu"),
         [("modelDescription.xml", fmi3.replace("ARRAY", '<Dimension start="3"/>', 1).replace("ARRAY", '<Dimension start="2"/>')),
          (so3, binary)])
    pack(os.path.join(out, "array_dimension.fmu"),
         [("modelDescription.xml", fmi3.replace("ARRAY", '<Dimension valueReference="7"/>')), (so3, binary)])
    pack(os.path.join(out, "missing_function.fmu"), [("modelDescription.xml", fmi3.replace("ARRAY", "")), (so3, binary)])
    pack(os.path.join(out, "not_loading.fmu"), [("modelDescription.xml", description), (so, "not a shared object\n")])


if __name__ == "__main__":
    main()
