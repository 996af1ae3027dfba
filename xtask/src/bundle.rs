//! `cargo xtask bundle`: the whole app as one HTML file for rooms without a network.
//!
//! ```text
//!   target/dist/index.html ─┐
//!   every linked stylesheet ──inline <style>─┤
//!   ddlscope_app.js ──inline <script type="module">─┼──▶ target/ddlscope-workshop.html
//!   ddlscope_app_bg.wasm ──base64, handed to init()─┘    (lessons are in the wasm)
//!   --lesson FILE... ──<script type="application/toml" data-ddlscope-lesson>─┘
//! ```
//!
//! A lesson file given with `--lesson` rides in the page as a data block (never run);
//! the player reads it at start with the engine's reader, lists it with the built-in
//! lessons, and says on the page what is wrong with one that does not read.
//!
//! The file opens from disk (`file://`): nothing is fetched, so no server is needed.
//! The engines run in a Web Worker there too: a classic one started from a blob (a
//! file's page can start no module worker) whose script, carried in the page, is
//! the glue made a classic script and `web/bundle-worker.js`.

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::{self, human_size, say, Result};

/// Where the bundle goes.
pub fn bundle_path() -> PathBuf {
    util::target_dir().join("ddlscope-workshop.html")
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn read(dir: &Path, name: &str) -> Result<Vec<u8>> {
    let p = dir.join(name);
    fs::read(&p).map_err(|e| {
        format!(
            "cannot read {}: {e} (run cargo xtask dist first)",
            p.display()
        )
    })
}

/// The page's module script, run from inline text: the glue (an inline module may
/// keep its exports), the module compiled from a `data:` URL of its bytes (decoded
/// and compiled off the page's thread as they stream; decoding the base64 in script
/// was a task of about 230 ms), the
/// engines' worker started from the blob of `#ddlscope-worker` ([`worker_source`])
/// and given that module, then init() with it. When no worker starts, the page runs
/// the engines itself and says why (`worker::fallback`).
fn boot_script(glue: &str, wasm: &[u8]) -> Result<String> {
    if !glue.contains("function __wbg_init(") {
        return Err(
            "ddlscope_app.js has no __wbg_init(): wasm-bindgen changed, update bundle.rs".into(),
        );
    }
    Ok(format!(
        "{glue}\nconst ddlscopeWasmUrl = \"data:application/wasm;base64,{}\";\n\
         const ddlscopeCompiled = fetch(ddlscopeWasmUrl).then((r) => WebAssembly.compileStreaming(r))\n  \
         .catch(() => fetch(ddlscopeWasmUrl).then((r) => r.arrayBuffer()).then((b) => WebAssembly.compile(b)));\n\
         try {{\n  const source = document.getElementById('ddlscope-worker').textContent;\n  \
         const worker = new Worker(URL.createObjectURL(new Blob([source], {{ type: 'text/javascript' }})));\n  \
         worker.addEventListener('error', (e) => {{ worker.earlyError = e.message || 'the worker script did not run'; }});\n  \
         ddlscopeCompiled.then((m) => worker.postMessage(m), () => {{}});\n  \
         window.__ddlscopeWorker = worker;\n}} catch (e) {{\n  console.warn(`the engines' worker did not start: ${{e}}`);\n}}\n\
         ddlscopeCompiled.then((module) => __wbg_init({{ module_or_path: module }})).catch((err) => {{\n  console.error(err);\n  \
         document.getElementById('app').textContent = `The simulator failed to start: ${{err}}`;\n}});\n",
        base64(wasm)
    ))
}

/// The engines' worker as one classic script: the glue made a classic script (a
/// page opened from a file can start no module worker) in `ddlscopeGlue`, then
/// `web/bundle-worker.js`. Carried in a `<script type="text/plain">`, so it must not
/// close one.
fn worker_source(glue: &str, boot: &str) -> Result<String> {
    let mut body = String::with_capacity(glue.len());
    let mut exported = Vec::new();
    for line in glue.lines() {
        if let Some(rest) = line.strip_prefix("export function ") {
            exported.push(
                rest.split('(')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
            );
            body.push_str(&line["export ".len()..]);
        } else if line.starts_with("export {") {
            // The module's export list (initSync, the default init): not needed.
            continue;
        } else if line.starts_with("export ") || line.starts_with("import ") {
            return Err(format!(
                "ddlscope_app.js has `{line}`: wasm-bindgen changed, update bundle.rs"
            ));
        } else {
            body.push_str(&line.replace("import.meta.url", "self.location.href"));
        }
        body.push('\n');
    }
    for needed in ["worker_main"] {
        if !exported.iter().any(|e| e == needed) {
            return Err(format!(
                "ddlscope_app.js exports no {needed}(): update bundle.rs"
            ));
        }
    }
    exported.push("initSync".to_string());
    let source = format!(
        "const ddlscopeGlue = (function () {{\n'use strict';\n{body}return {{ {} }};\n}})();\n{boot}",
        exported.join(", ")
    );
    if source.contains("</script") {
        return Err("the worker's script contains </script>: it cannot ride in the page".into());
    }
    Ok(source)
}

/// `html` with the speaker-notes page carried in a `<meta name="ddlscope-notes">`
/// (base64): the one file has no notes.html beside it, so the lesson player writes
/// this into the notes window it opens.
fn carry_notes(html: &str, notes: &[u8]) -> Result<String> {
    let head = html
        .find("</head>")
        .ok_or("index.html has no </head> to carry the notes page in")?;
    Ok(format!(
        "{}<meta name=\"ddlscope-notes\" content=\"{}\">\n{}",
        &html[..head],
        base64(notes),
        &html[head..]
    ))
}

/// `html` with each lesson file (its name, its text) carried before `</head>` in a
/// `<script type="application/toml" data-ddlscope-lesson="NAME">` data block.
fn carry_lessons(html: &str, lessons: &[(String, String)]) -> Result<String> {
    let head = html
        .find("</head>")
        .ok_or("index.html has no </head> to carry the lessons in")?;
    let mut blocks = String::new();
    for (name, text) in lessons {
        if text.to_ascii_lowercase().contains("</script") {
            return Err(format!("{name}: a lesson cannot hold the text </script>"));
        }
        let name = name.replace(['"', '<', '>', '&'], "_");
        blocks.push_str(&format!(
            "<script type=\"application/toml\" data-ddlscope-lesson=\"{name}\">\n{text}</script>\n"
        ));
    }
    Ok(format!("{}{blocks}{}", &html[..head], &html[head..]))
}

/// Reads the lesson files `paths`, each with its file name.
fn read_lessons(paths: &[PathBuf]) -> Result<Vec<(String, String)>> {
    paths
        .iter()
        .map(|p| {
            let text = fs::read_to_string(p)
                .map_err(|e| format!("cannot read the lesson {}: {e}", p.display()))?;
            let name = p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Ok((name, text))
        })
        .collect()
}

/// The page's module script tag (app.js), which the bundle replaces with its own.
const MODULE_TAG: &str = "<script type=\"module\" src=\"app.js\"></script>";
/// The early worker's script (boot.js): it starts nothing from a file, and the one
/// file has no boot.js beside it.
const BOOT_TAG: &str = "<script src=\"boot.js\"></script>\n";

/// Where the page's module script tag lies in `index`.
fn module_script(index: &str) -> Option<(usize, usize)> {
    let start = index.find(MODULE_TAG)?;
    Some((start, start + MODULE_TAG.len()))
}

/// The notes page with its script and stylesheet inlined: the lesson player writes it
/// into a window of its own, where no notes.js or notes.css lies beside it.
fn inline_notes(dist: &Path) -> Result<Vec<u8>> {
    let text = |name: &str| -> Result<String> {
        String::from_utf8(read(dist, name)?).map_err(|e| format!("{name}: {e}"))
    };
    let notes = text("notes.html")?;
    let (script, style) = (
        "<script src=\"notes.js\"></script>",
        "<link rel=\"stylesheet\" href=\"notes.css\">",
    );
    if !notes.contains(script) || !notes.contains(style) {
        return Err(
            "notes.html no longer links notes.js and notes.css as bundle.rs expects".into(),
        );
    }
    Ok(notes
        .replace(script, &format!("<script>\n{}</script>", text("notes.js")?))
        .replace(style, &format!("<style>\n{}</style>", text("notes.css")?))
        .into_bytes())
}

/// Writes the bundle from the site in `dist`, carrying the lesson files `lessons`;
/// returns its path.
pub fn bundle(dist: &Path, lessons: &[PathBuf]) -> Result<PathBuf> {
    say(
        "inlining the site into one HTML file",
        "a workshop room may have no network: the file must open from disk",
    );
    let index = String::from_utf8(read(dist, "index.html")?).map_err(|e| e.to_string())?;
    let glue = String::from_utf8(read(dist, "ddlscope_app.js")?).map_err(|e| e.to_string())?;
    let wasm = read(dist, "ddlscope_app_bg.wasm")?;
    let (start, end) = module_script(&index)
        .ok_or("index.html no longer has the module script bundle.rs replaces")?;
    let worker_boot =
        String::from_utf8(read(dist, "bundle-worker.js")?).map_err(|e| e.to_string())?;
    let script = format!(
        "<script type=\"text/plain\" id=\"ddlscope-worker\">\n{}</script>\n\
         <script type=\"module\">\n{}</script>",
        worker_source(&glue, &worker_boot)?,
        boot_script(&glue, &wasm)?
    );
    let mut html =
        format!("{}{}{}", &index[..start], script, &index[end..]).replacen(BOOT_TAG, "", 1);
    // Every stylesheet the page links, inlined in place.
    while let Some(i) = html.find("<link rel=\"stylesheet\" href=\"") {
        let from = i + "<link rel=\"stylesheet\" href=\"".len();
        let name_end = html[from..]
            .find('"')
            .ok_or("an unclosed stylesheet link")?
            + from;
        let tag_end = html[name_end..]
            .find('>')
            .ok_or("an unclosed stylesheet link")?
            + name_end
            + 1;
        let name = html[from..name_end].to_string();
        let css = String::from_utf8(read(dist, &name)?).map_err(|e| e.to_string())?;
        html.replace_range(i..tag_end, &format!("<style>\n{css}\n</style>"));
    }
    let notes = inline_notes(dist)?;
    html = carry_notes(&html, &notes)?;
    html = carry_lessons(&html, &read_lessons(lessons)?)?;
    let out = bundle_path();
    fs::write(&out, &html).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    say(
        format!(
            "wrote {} ({})",
            out.display(),
            human_size(html.len() as u64)
        ),
        "open it from disk in a browser: no server, no network",
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{base64, carry_lessons, carry_notes, module_script, worker_source, MODULE_TAG};

    #[test]
    fn lessons_ride_in_the_head_as_data_blocks() {
        let html = "<html><head></head><body></body></html>";
        let lessons = [("my \"one\".toml".to_string(), "id = \"x\"\n".to_string())];
        assert_eq!(
            carry_lessons(html, &lessons).unwrap(),
            "<html><head><script type=\"application/toml\" data-ddlscope-lesson=\"my _one_.toml\">\nid = \"x\"\n</script>\n</head><body></body></html>"
        );
        let bad = [("b.toml".to_string(), "x = \"</SCRIPT>\"".to_string())];
        assert!(carry_lessons(html, &bad).unwrap_err().contains("b.toml"));
    }

    #[test]
    fn the_worker_gets_the_glue_as_a_classic_script() {
        let glue = "let wasm;\nexport function start() {}\nexport function worker_main(early) {\n  wasm.go(early);\n}\nfunction initSync(m) {}\nconst u = new URL('x.wasm', import.meta.url);\nexport { initSync, __wbg_init as default };\n";
        let source = worker_source(glue, "ddlscopeGlue.worker_main([]);\n").unwrap();
        assert!(source.starts_with("const ddlscopeGlue = (function () {\n'use strict';\nlet wasm;\nfunction start() {}\nfunction worker_main(early) {"), "{source}");
        assert!(source.contains("new URL('x.wasm', self.location.href)"));
        assert!(
            source.contains(
                "return { start, worker_main, initSync };\n})();\nddlscopeGlue.worker_main([]);"
            ),
            "{source}"
        );
        assert!(!source.contains("export"), "{source}");
        assert!(worker_source("export function start() {}\n", "")
            .unwrap_err()
            .contains("worker_main"));
        assert!(
            worker_source("import x from 'y';\nexport function worker_main() {}\n", "").is_err()
        );
        assert!(worker_source("export function worker_main() { '</script>' }\n", "").is_err());
    }

    #[test]
    fn the_module_script_is_found_after_the_early_workers_script() {
        let index = "<head><script src=\"boot.js\"></script>\n<script type=\"module\" src=\"app.js\"></script></head>";
        let (start, end) = module_script(index).unwrap();
        assert_eq!(&index[start..end], MODULE_TAG);
        assert_eq!(module_script("<script src=\"boot.js\"></script>"), None);
        assert_eq!(
            module_script("<script type=\"module\">init()</script>"),
            None
        );
    }

    #[test]
    fn the_notes_page_rides_in_the_head() {
        let html = carry_notes(
            "<html><head><title>x</title></head><body></body></html>",
            b"<p>notes</p>",
        )
        .unwrap();
        assert_eq!(
            html,
            "<html><head><title>x</title><meta name=\"ddlscope-notes\" content=\"PHA+bm90ZXM8L3A+\">\n</head><body></body></html>"
        );
        assert!(carry_notes("<body></body>", b"").is_err());
    }

    #[test]
    fn base64_pads_as_the_standard_says() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
