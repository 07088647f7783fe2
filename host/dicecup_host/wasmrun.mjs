// Runs a MicroPython script in the official WebAssembly port under Node, with files
// copied into its in-memory filesystem first (it mounts no host folder).
//
//   node wasmrun.mjs PKG_DIR SPEC.json
//
// PKG_DIR: the installed @micropython/micropython-webassembly-pyscript package.
// SPEC: {"files": [[wasm_path, host_path], ...], "path": [folders put first on
// sys.path, ahead of the port's frozen modules], "dirs": [folders made], "argv": [...],
// "script": host_path, "steps": false}. With "steps", the script is imported as a
// module and its step() called, each time from JavaScript, until it returns False:
// this port frees what became garbage only once the call that made it returned.
// The script's output goes to stdout; a Python exception to stderr, exit status 1.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, specPath] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specPath, "utf8"));
const { loadMicroPython } = await import(pathToFileURL(join(pkg, "micropython.mjs")).href);
const mp = await loadMicroPython({ stdout: (line) => process.stdout.write(line + "\n"), linebuffer: true });

function mkdirs(path) {
  let at = "";
  for (const part of path.split("/").slice(1, -1)) {
    at += "/" + part;
    try { mp.FS.mkdir(at); } catch (e) { /* it exists */ }
  }
}

for (const [dst, src] of spec.files) {
  mkdirs(dst);
  mp.FS.writeFile(dst, readFileSync(src));
}
for (const dir of spec.path.concat(spec.dirs || [])) mkdirs(dir + "/x");
const source = readFileSync(spec.script, "utf8");
mkdirs("/main/x");
mp.FS.writeFile("/main/script_main.py", source);
const setup = "import sys\n" +
  "sys.path[:0] = " + JSON.stringify(spec.path.concat(["/main"])) + "\n" +
  "sys.argv[:] = " + JSON.stringify(["script_main.py"].concat(spec.argv)) + "\n";
try {
  mp.runPython(setup);
  if (spec.steps) {
    mp.runPython("import script_main");
    do {
      mp.runPython("_more = script_main.step()");
    } while (mp.globals.get("_more"));
  } else {
    mp.runPython("exec(open('/main/script_main.py').read(), {'__name__': '__main__'})");
  }
} catch (e) {
  process.stderr.write(String(e && e.message ? e.message : e) + "\n");
  process.exit(1);
}
