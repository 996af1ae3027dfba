//! A small static-file server for `target/dist/`, on loopback only.
//!
//! HTTP/1.1 with `Connection: close`: one request per connection, one thread per
//! connection. That is all a browser (or the e2e tests) needs to load the site, and
//! it keeps the server a page of std code. GET and HEAD only.
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
pub fn serve_forever(listener: TcpListener, root: PathBuf) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let root = root.clone();
        thread::spawn(move || {
            // A client that hangs up early is its own business.
            let _ = handle(stream, &root);
        });
    }
}

/// Starts serving `root` on a free loopback port in a background thread.
pub fn spawn(root: PathBuf) -> Result<SocketAddr> {
    let listener = bind(0)?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the server's address: {e}"))?;
    thread::Builder::new()
        .name("static-server".into())
        .spawn(move || serve_forever(listener, root))
        .map_err(|e| format!("cannot start the server thread: {e}"))?;
    Ok(addr)
}

fn handle(stream: TcpStream, root: &Path) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;

    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; we need none of them.
    let mut head_bytes = request_line.len();
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line)?;
        head_bytes += n;
        if n == 0 || line == "\r\n" || line == "\n" {
            break;
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
    let Ok(body) = std::fs::read(&path) else {
        return respond_error(&mut writer, 404, "Not Found");
    };
    let header = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
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
        let addr = spawn(root).unwrap();
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
