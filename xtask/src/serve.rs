//! A small static-file server for `target/dist/`, on loopback only.
//!
//! HTTP/1.1 with `Connection: close`: one request per connection, one thread per
//! connection. That is all a browser (or the e2e tests) needs to load the site, and
//! it keeps the server a page of std code. GET and HEAD only.
//!
//! Precompressed files: where `x.br` (or `x.gz`) lies beside `x` and the request
//! accepts that encoding, the server sends it with `Content-Encoding` (as nginx's
//! `brotli_static`/`gzip_static` do; `cargo xtask dist` writes them). With
//! [`Options::strict_csp`] every page goes out under [`STRICT_CSP`], the policy the
//! project's pages must run under (the browser tests check they do).
//!
//! Safety: the request path is percent-decoded, split on `/`, and any `..` segment
//! (or a backslash or NUL) is refused; the resolved file must also canonicalize to a
//! path inside the served root, so a symlink cannot lead out either.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use crate::util::Result;

/// The Content-Security-Policy of `--csp` (docs/hosting.md): no inline script or
/// style, WebAssembly compiled, the engines' worker from this origin or a blob.
pub const STRICT_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     worker-src 'self' blob:; style-src 'self'; img-src 'self' data: blob:";

/// How the server answers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Send [`STRICT_CSP`] with every response.
    pub strict_csp: bool,
}

/// Longest request head we read before answering 431.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// Binds 127.0.0.1:`port`; port 0 picks a free one. A busy port is a clear error.
pub fn bind(port: u16) -> Result<TcpListener> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(|e| {
        if e.kind() == io::ErrorKind::AddrInUse {
            format!(
                "port {port} is in use; try --port {}",
                port.checked_add(1).unwrap_or(8081)
            )
        } else {
            format!("cannot listen on 127.0.0.1:{port}: {e}")
        }
    })
}

/// Serves `root` on `listener` until the process ends.
pub fn serve_forever(listener: TcpListener, root: PathBuf, options: Options) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = root.clone();
        thread::spawn(move || {
            // A client that hangs up early is its own business.
            let _ = handle(stream, &root, options);
        });
    }
}

/// Starts serving `root` on a free loopback port in a background thread.
pub fn spawn(root: PathBuf, options: Options) -> Result<SocketAddr> {
    let listener = bind(0)?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the server's address: {e}"))?;
    thread::Builder::new()
        .name("static-server".into())
        .spawn(move || serve_forever(listener, root, options))
        .map_err(|e| format!("cannot start the server thread: {e}"))?;
    Ok(addr)
}

fn handle(stream: TcpStream, root: &Path, options: Options) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;

    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Read the headers; only Accept-Encoding matters.
    let mut head_bytes = request_line.len();
    let mut accept_encoding = String::new();
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line)?;
        head_bytes += n;
        if n == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("accept-encoding") {
                accept_encoding = value.trim().to_ascii_lowercase();
            }
        }
        if head_bytes > MAX_HEAD_BYTES {
            return respond_error(&mut writer, 431, "Request Header Fields Too Large");
        }
    }

    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return respond_error(&mut writer, 400, "Bad Request");
    };
    let head_only = match method {
        "GET" => false,
        "HEAD" => true,
        _ => return respond_error(&mut writer, 405, "Method Not Allowed"),
    };
    let Some(path) = resolve(root, target) else {
        return respond_error(&mut writer, 404, "Not Found");
    };
    let (sent, encoding) = precompressed(&path, &accept_encoding);
    let Ok(body) = std::fs::read(&sent) else {
        return respond_error(&mut writer, 404, "Not Found");
    };
    let mut extra = String::new();
    if let Some(encoding) = encoding {
        extra.push_str(&format!("Content-Encoding: {encoding}\r\n"));
    }
    if options.strict_csp {
        extra.push_str(&format!("Content-Security-Policy: {STRICT_CSP}\r\n"));
    }
    let header = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n{extra}\
         Vary: Accept-Encoding\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n\
         Connection: close\r\n\r\n",
        mime_type(&path),
        body.len()
    );
    writer.write_all(header.as_bytes())?;
    if !head_only {
        writer.write_all(&body)?;
    }
    writer.flush()
}

fn respond_error(writer: &mut TcpStream, status: u16, reason: &str) -> io::Result<()> {
    let body = format!("{status} {reason}\n");
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    writer.write_all(response.as_bytes())?;
    writer.flush()
}

/// Maps a request target to a file under `root`, or `None` (answered with 404).
/// `/` and directories serve their `index.html`.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next()?;
    let decoded = percent_decode(path)?;
    if !decoded.starts_with('/') || decoded.contains(['\\', '\0']) {
        return None;
    }
    let mut file = root.to_path_buf();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return None,
            name => file.push(name),
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    let canonical = file.canonicalize().ok()?;
    let canonical_root = root.canonicalize().ok()?;
    (canonical.starts_with(&canonical_root) && canonical.is_file()).then_some(canonical)
}

/// Whether the client accepts `coding` (`br`, `gzip`) by its Accept-Encoding value
/// (`q=0` refuses).
fn accepts(accept_encoding: &str, coding: &str) -> bool {
    accept_encoding.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        parts.next() == Some(coding) && !parts.any(|p| p.replace(' ', "") == "q=0")
    })
}

/// The file to send for `path`: its `.br` or `.gz` twin when one lies beside it and
/// the client accepts it (with the encoding to name), otherwise `path` itself.
pub fn precompressed(path: &Path, accept_encoding: &str) -> (PathBuf, Option<&'static str>) {
    for (coding, ext) in [("br", "br"), ("gzip", "gz")] {
        if !accepts(accept_encoding, coding) {
            continue;
        }
        let mut twin = path.as_os_str().to_owned();
        twin.push(".");
        twin.push(ext);
        let twin = PathBuf::from(twin);
        if twin.is_file() {
            return (twin, Some(coding));
        }
    }
    (path.to_path_buf(), None)
}

/// Decodes `%XX` escapes; `None` for a malformed escape or invalid UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The Content-Type for a file, by extension. Browsers insist on `application/wasm`
/// for streaming compilation and on a JavaScript type for module scripts.
pub fn mime_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" | "map" => "application/json",
        "toml" => "application/toml",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        "csv" => "text/csv; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::io::Read;

    /// A throwaway site: index.html, a nested asset, and a secret beside the root.
    fn site(test: &str) -> (PathBuf, PathBuf) {
        let base = std::env::temp_dir().join(format!("xtask-serve-{test}-{}", std::process::id()));
        let root = base.join("dist");
        fs::create_dir_all(root.join("assets/profiles")).unwrap();
        fs::write(root.join("index.html"), "<!doctype html>").unwrap();
        fs::write(root.join("assets/profiles/mysql 5.7.toml"), "name = 1").unwrap();
        fs::write(base.join("secret.txt"), "no").unwrap();
        (base, root)
    }

    fn check(root: &Path, target: &str, expect: Option<&str>) {
        let got = resolve(root, target).map(|p| {
            p.strip_prefix(root.canonicalize().unwrap())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        });
        assert_eq!(got.as_deref(), expect, "target {target:?}");
    }

    #[test]
    fn resolves_files_and_refuses_escapes() {
        let (base, root) = site("resolve");
        check(&root, "/", Some("index.html"));
        check(&root, "/index.html?x=1#y", Some("index.html"));
        check(
            &root,
            "/assets/profiles/mysql%205.7.toml",
            Some("assets/profiles/mysql 5.7.toml"),
        );
        check(&root, "/missing.js", None);
        check(&root, "/../secret.txt", None);
        check(&root, "/%2e%2e/secret.txt", None);
        check(&root, "/assets/..%2f..%2fsecret.txt", None);
        check(&root, "/assets\\..\\secret.txt", None);
        check(&root, "/%zz", None);
        check(&root, "secret.txt", None);
        fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn mime_types_match_what_browsers_require() {
        for (name, mime) in [
            ("a.wasm", "application/wasm"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.PNG", "image/png"),
            ("a.json", "application/json"),
            ("a.toml", "application/toml"),
            ("a", "application/octet-stream"),
        ] {
            assert_eq!(mime_type(Path::new(name)), mime, "{name}");
        }
    }

    fn get(addr: SocketAddr, request: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    #[test]
    fn serves_over_loopback() {
        let (base, root) = site("loopback");
        let addr = spawn(root, Options::default()).unwrap();
        let ok = get(addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        assert!(
            ok.contains("Content-Type: text/html; charset=utf-8\r\n"),
            "{ok}"
        );
        assert!(ok.ends_with("<!doctype html>"), "{ok}");
        let head = get(addr, "HEAD /index.html HTTP/1.1\r\n\r\n");
        assert!(
            head.contains("Content-Length: 15\r\n") && head.ends_with("\r\n\r\n"),
            "{head}"
        );
        assert!(get(addr, "GET /../secret.txt HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(get(addr, "POST / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
        fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn precompressed_twins_and_the_strict_policy() {
        let (base, root) = site("encoded");
        fs::write(root.join("app.wasm"), b"plain").unwrap();
        fs::write(root.join("app.wasm.br"), b"brotli").unwrap();
        fs::write(root.join("app.wasm.gz"), b"gzip").unwrap();
        let addr = spawn(root.clone(), Options { strict_csp: true }).unwrap();
        let br = get(
            addr,
            "GET /app.wasm HTTP/1.1\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n",
        );
        assert!(br.contains("Content-Type: application/wasm\r\n"), "{br}");
        assert!(
            br.contains("Content-Encoding: br\r\n") && br.ends_with("brotli"),
            "{br}"
        );
        assert!(
            br.contains(&format!("Content-Security-Policy: {STRICT_CSP}\r\n")),
            "{br}"
        );
        let gz = get(
            addr,
            "GET /app.wasm HTTP/1.1\r\naccept-encoding: gzip, br;q=0\r\n\r\n",
        );
        assert!(
            gz.contains("Content-Encoding: gzip\r\n") && gz.ends_with("gzip"),
            "{gz}"
        );
        let plain = get(addr, "GET /app.wasm HTTP/1.1\r\n\r\n");
        assert!(
            !plain.contains("Content-Encoding") && plain.ends_with("plain"),
            "{plain}"
        );
        // No twin: the file as it is.
        let page = get(addr, "GET / HTTP/1.1\r\nAccept-Encoding: br\r\n\r\n");
        assert!(
            !page.contains("Content-Encoding") && page.ends_with("<!doctype html>"),
            "{page}"
        );
        fs::remove_dir_all(base).unwrap();
    }

    #[test]
    fn busy_port_says_so() {
        let taken = bind(0).unwrap();
        let port = taken.local_addr().unwrap().port();
        let err = bind(port).unwrap_err();
        assert!(
            err.starts_with(&format!("port {port} is in use; try --port ")),
            "{err}"
        );
    }
}
