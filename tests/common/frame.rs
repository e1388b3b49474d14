//! LSP framing: `Content-Length` headers around a body, read and written. Shared by the test
//! clients, the benches and the stand-in server (`lean-standin` includes this file by path, so it
//! must not use anything else of `tests/common`). No JSON, no processes.

use std::io::BufRead;

/// The next frame's body into `body` (resized to it); `None` at end of input or on a read
/// error. Header lines other than `Content-Length` are ignored, as are empty lines before it.
pub fn read_frame_into(r: &mut impl BufRead, body: &mut Vec<u8>) -> Option<()> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let header = line.trim_end();
        if header.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    // Every byte is overwritten by the read: no need to clear what a previous frame left.
    body.resize(length?, 0);
    r.read_exact(body).ok()
}

/// The next frame's body, as [`read_frame_into`].
pub fn read_frame(r: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    read_frame_into(r, &mut body)?;
    Some(body)
}

/// `body` framed: its `Content-Length` header, then the body, in one buffer (one write per
/// frame, as Lean's writer does, so a reader never wakes for half a frame).
pub fn framed(body: &[u8]) -> Vec<u8> {
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body);
    frame
}
