//! Netrace traces replayed as trace-driven traffic: every packet becomes a message made at
//! its cycle, its dependencies read and ignored (docs/network.md, "Traffic from a file").
//! Netrace is Hestness, Grot and Keckler's "Netrace: dependency-driven trace-based
//! network-on-chip simulation" (NoCArc 2010, UT Austin). This reader is ours, written from
//! the format that Netrace's own reader (netrace.c, trace version 1.0) reads, little-endian
//! and packed:
//!
//! - a header of 72 bytes: magic number 0x484A5455 (u32), version 1.0 (f32), benchmark name
//!   (30 bytes, NUL-padded), node count (u8), a pad byte, cycles (u64), packets (u64), the
//!   notes' length (u32), the region count (u32), 8 bytes of padding;
//! - the notes (that many bytes) and 24 bytes per region (seek offset, cycles, packets),
//!   which replaying the whole trace does not need;
//! - packets to the end of the file, each 21 bytes: cycle (u64), id (u32), address (u32),
//!   type, source, destination, node types and dependency count (u8 each), then that many
//!   u32 ids of the later packets that wait for it.
//!
//! A packet's size is fixed by its type ([`packet_bytes`]). Traces are distributed
//! bzip2-compressed (`.tra.bz2`): [`unpacked`] decompresses them.

use super::replay::Replayed;
use bzip2::bufread::MultiBzDecoder;
use serde::Serialize;
use std::io::{self, BufRead, BufReader, ErrorKind, Read};
use thiserror::Error;

/// Netrace's magic number as it starts a trace (0x484A5455 little-endian: "UTJH").
pub const MAGIC: [u8; 4] = 0x484A_5455u32.to_le_bytes();

/// What starts a bzip2 stream.
const BZIP2_MAGIC: &[u8] = b"BZh";

const HEADER_BYTES: usize = 72;
const REGION_BYTES: u64 = 24;
const PACKET_BYTES: usize = 21;
const DEPENDENCY_BYTES: u64 = 4;

/// What a trace's header says of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NetraceHeader {
    pub benchmark: String,
    pub nodes: u8,
    pub cycles: u64,
    pub packets: u64,
}

/// A trace read whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Netrace {
    pub header: NetraceHeader,
    /// Each replayed packet's id and message, in the trace's order (Netrace's is by cycle).
    pub messages: Vec<(u32, Replayed)>,
    /// Packets from a node to itself: they never enter a network, so they are not replayed.
    pub to_self: u64,
}

/// Why a trace cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetraceError {
    #[error("not a Netrace trace: it does not start with Netrace's magic number 0x484A5455")]
    BadMagic,
    #[error("Netrace trace version {0} is not read, only version 1.0")]
    Version(String),
    #[error("truncated at byte {offset}: {needs} bytes of {what} expected, {left} found")]
    Truncated {
        what: String,
        offset: u64,
        needs: u64,
        left: u64,
    },
    #[error("the trace is of {trace} nodes, more than this network's {network}")]
    TooManyNodes { trace: u8, network: usize },
    #[error("netrace packet {id}: {role} {node} is not a node of this {nodes}-node network")]
    NoSuchNode {
        id: u32,
        role: &'static str,
        node: u8,
        nodes: usize,
    },
    #[error("netrace packet {id}: type {kind} is not a packet type of Netrace's table")]
    UnknownType { id: u32, kind: u8 },
    #[error("cannot read the trace: {0}")]
    Io(String),
}

/// `input` decompressed if it is bzip2 (it starts with "BZh"), as it is otherwise.
pub fn unpacked<'a>(mut input: impl BufRead + 'a) -> io::Result<Box<dyn BufRead + 'a>> {
    if input.fill_buf()?.starts_with(BZIP2_MAGIC) {
        // Several streams end to end, as parallel compressors (pbzip2) write them.
        Ok(Box::new(BufReader::new(MultiBzDecoder::new(input))))
    } else {
        Ok(Box::new(input))
    }
}

/// Whether `input` (decompressed) is a Netrace trace: it starts with the magic number.
pub fn is_netrace(input: &mut impl BufRead) -> io::Result<bool> {
    Ok(input.fill_buf()?.starts_with(&MAGIC))
}

/// The bytes of a packet of Netrace type `kind` (its table of the coherence messages of the
/// simulated chip), or None for a type the table calls an invalid command.
pub fn packet_bytes(kind: u8) -> Option<u8> {
    match kind {
        // ReadReq, WriteResp, UpgradeReq, UpgradeResp, ReadExReq, BadAddressError,
        // InvalidateReq, InvalidateResp, DowngradeReq: a header alone.
        1 | 5 | 13 | 14 | 15 | 25 | 27 | 28 | 29 => Some(8),
        // ReadResp, ReadRespWithInvalidate, WriteReq, Writeback, ReadExResp, DowngradeResp:
        // a header and a 64-byte cache line.
        2 | 3 | 4 | 6 | 16 | 30 => Some(72),
        _ => None,
    }
}

/// The trace `input` (decompressed) on a network of `nodes` nodes, Netrace's node i being
/// the network's node of index i.
pub fn read_netrace(input: impl Read, nodes: usize) -> Result<Netrace, NetraceError> {
    let mut input = Input { input, offset: 0 };
    let header = read_header(&mut input)?;
    if usize::from(header.nodes) > nodes {
        return Err(NetraceError::TooManyNodes {
            trace: header.nodes,
            network: nodes,
        });
    }
    let mut messages = Vec::new();
    let mut to_self = 0;
    while let Some(packet) = read_packet(&mut input)? {
        match packet.message(nodes)? {
            Some(message) => messages.push((packet.id, message)),
            None => to_self += 1,
        }
    }
    Ok(Netrace {
        header,
        messages,
        to_self,
    })
}

/// The header, with the notes and region headers after it skipped.
fn read_header(input: &mut Input<impl Read>) -> Result<NetraceHeader, NetraceError> {
    let mut bytes = [0; HEADER_BYTES];
    let got = input.read_upto(&mut bytes)?;
    // A file too short for a magic number is refused for its magic if its first bytes
    // already differ, and is a truncated trace otherwise.
    if !MAGIC.starts_with(&bytes[..got.min(MAGIC.len())]) {
        return Err(NetraceError::BadMagic);
    }
    input.complete(got, HEADER_BYTES, "header")?;
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
    let version = f32::from_bits(u32_at(4));
    if version != 1.0 {
        return Err(NetraceError::Version(version.to_string()));
    }
    let name = &bytes[8..38];
    let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
    let (notes, regions) = (u32_at(56), u32_at(60));
    input.skip(u64::from(notes), "notes")?;
    input.skip(u64::from(regions) * REGION_BYTES, "region headers")?;
    Ok(NetraceHeader {
        benchmark: String::from_utf8_lossy(name).into_owned(),
        nodes: bytes[38],
        cycles: u64_at(40),
        packets: u64_at(48),
    })
}

/// What replaying needs of a packet.
struct Packet {
    cycle: u64,
    id: u32,
    kind: u8,
    src: u8,
    dst: u8,
}

/// The next packet, its dependencies skipped, or None at the end of the trace.
fn read_packet(input: &mut Input<impl Read>) -> Result<Option<Packet>, NetraceError> {
    let mut bytes = [0; PACKET_BYTES];
    let got = input.read_upto(&mut bytes)?;
    if got == 0 {
        return Ok(None);
    }
    input.complete(got, PACKET_BYTES, "packet record")?;
    let packet = Packet {
        cycle: u64::from_le_bytes(bytes[0..8].try_into().unwrap()),
        id: u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        kind: bytes[16],
        src: bytes[17],
        dst: bytes[18],
    };
    let dependencies = u64::from(bytes[20]) * DEPENDENCY_BYTES;
    let what = format!("dependencies of packet {}", packet.id);
    input.skip(dependencies, &what)?;
    Ok(Some(packet))
}

impl Packet {
    /// The message the packet makes on a network of `nodes` nodes, None if it goes from a
    /// node to itself.
    fn message(&self, nodes: usize) -> Result<Option<Replayed>, NetraceError> {
        for (role, node) in [("source", self.src), ("destination", self.dst)] {
            if usize::from(node) >= nodes {
                return Err(NetraceError::NoSuchNode {
                    id: self.id,
                    role,
                    node,
                    nodes,
                });
            }
        }
        let bytes = packet_bytes(self.kind).ok_or(NetraceError::UnknownType {
            id: self.id,
            kind: self.kind,
        })?;
        Ok((self.src != self.dst).then(|| (self.cycle, self.src.into(), self.dst.into(), bytes)))
    }
}

/// The trace being read, with the offset of its next byte for the errors.
struct Input<R> {
    input: R,
    offset: u64,
}

impl<R: Read> Input<R> {
    /// Fills as much of `buf` as the trace has, up to its end; the count read.
    fn read_upto(&mut self, buf: &mut [u8]) -> Result<usize, NetraceError> {
        let mut got = 0;
        while got < buf.len() {
            match self.input.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(NetraceError::Io(e.to_string())),
            }
        }
        self.offset += got as u64;
        Ok(got)
    }

    /// Fails if the `needs` bytes of the `what` just read were cut short at `got`.
    fn complete(&self, got: usize, needs: usize, what: &str) -> Result<(), NetraceError> {
        if got == needs {
            return Ok(());
        }
        Err(NetraceError::Truncated {
            what: what.to_string(),
            offset: self.offset - got as u64,
            needs: needs as u64,
            left: got as u64,
        })
    }

    /// Passes over the `needs` bytes of `what`.
    fn skip(&mut self, needs: u64, what: &str) -> Result<(), NetraceError> {
        let got = io::copy(&mut (&mut self.input).take(needs), &mut io::sink())
            .map_err(|e| NetraceError::Io(e.to_string()))?;
        self.offset += got;
        if got == needs {
            return Ok(());
        }
        Err(NetraceError::Truncated {
            what: what.to_string(),
            offset: self.offset - got,
            needs,
            left: got,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A header as Netrace writes it, byte by byte: 64 nodes, 1000 cycles, 4 packets, the
    /// 6 bytes of notes "hello\0" and one region.
    fn header(nodes: u8, version: f32) -> Vec<u8> {
        let mut b = vec![0x55, 0x54, 0x4A, 0x48];
        b.extend(version.to_le_bytes());
        let mut name = b"tiny".to_vec();
        name.resize(30, 0);
        b.extend(name);
        b.extend([nodes, 0]);
        b.extend(1000u64.to_le_bytes());
        b.extend(4u64.to_le_bytes());
        b.extend(6u32.to_le_bytes());
        b.extend(1u32.to_le_bytes());
        b.extend([0; 8]);
        assert_eq!(b.len(), 72);
        b.extend(b"hello\0");
        for field in [0u64, 1000, 4] {
            b.extend(field.to_le_bytes());
        }
        b
    }

    /// A packet record: cycle, id, address, type, source, destination, node types, then
    /// its dependencies.
    fn packet(cycle: u64, id: u32, kind: u8, src: u8, dst: u8, deps: &[u32]) -> Vec<u8> {
        let mut b = cycle.to_le_bytes().to_vec();
        b.extend(id.to_le_bytes());
        b.extend(0x8000_0040u32.to_le_bytes());
        b.extend([kind, src, dst, 0x02, deps.len() as u8]);
        for dep in deps {
            b.extend(dep.to_le_bytes());
        }
        b
    }

    /// Bytes 0..102 the header, then packets at 102 (21 bytes), 123 (29: two
    /// dependencies), 152 (21, from node 7 to itself) and 173 (25: one dependency); 198 in
    /// all.
    fn trace(nodes: u8, first_kind: u8) -> Vec<u8> {
        let mut b = header(nodes, 1.0);
        b.extend(packet(5, 0, first_kind, 3, 60, &[]));
        b.extend(packet(9, 1, 2, 60, 3, &[0, 7]));
        b.extend(packet(9, 2, 5, 7, 7, &[]));
        b.extend(packet(12, 3, 30, 63, 0, &[1]));
        assert_eq!(b.len(), 198);
        b
    }

    fn expected() -> Netrace {
        Netrace {
            header: NetraceHeader {
                benchmark: "tiny".to_string(),
                nodes: 64,
                cycles: 1000,
                packets: 4,
            },
            // ReadReq of 8 bytes, ReadResp and DowngradeResp of 72.
            messages: vec![
                (0, (5, 3, 60, 8)),
                (1, (9, 60, 3, 72)),
                (3, (12, 63, 0, 72)),
            ],
            to_self: 1,
        }
    }

    #[test]
    fn packets_become_messages_sized_by_type_and_their_dependencies_are_skipped() {
        assert_eq!(read_netrace(&trace(64, 1)[..], 64), Ok(expected()));
        // A larger network takes the trace's nodes as its first 64.
        assert_eq!(read_netrace(&trace(64, 1)[..], 100), Ok(expected()));
    }

    #[test]
    fn a_compressed_trace_and_a_plain_one_read_the_same() {
        let plain = trace(64, 1);
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        encoder.write_all(&plain).unwrap();
        let compressed = encoder.finish().unwrap();
        assert!(compressed.starts_with(b"BZh"));
        for bytes in [&compressed, &plain] {
            let mut input = unpacked(&bytes[..]).unwrap();
            assert!(is_netrace(&mut input).unwrap());
            assert_eq!(read_netrace(input, 64), Ok(expected()));
        }
        let mut text = unpacked(&b"0 010 121 16\n"[..]).unwrap();
        assert!(!is_netrace(&mut text).unwrap());
    }

    #[test]
    fn a_cut_trace_says_where_it_ends() {
        let cases = [
            (
                0,
                "truncated at byte 0: 72 bytes of header expected, 0 found",
            ),
            (
                50,
                "truncated at byte 0: 72 bytes of header expected, 50 found",
            ),
            (
                75,
                "truncated at byte 72: 6 bytes of notes expected, 3 found",
            ),
            (
                90,
                "truncated at byte 78: 24 bytes of region headers expected, 12 found",
            ),
            (
                180,
                "truncated at byte 173: 21 bytes of packet record expected, 7 found",
            ),
            (
                196,
                "truncated at byte 194: 4 bytes of dependencies of packet 3 expected, 2 found",
            ),
        ];
        for (length, message) in cases {
            let error = read_netrace(&trace(64, 1)[..length], 64).unwrap_err();
            assert_eq!(error.to_string(), message, "cut at {length}");
        }
    }

    #[test]
    fn what_cannot_be_replayed_is_refused_with_its_reason() {
        let mut version_2 = header(64, 2.0);
        version_2.truncate(72);
        let cases = [
            (
                b"0 010 121 16\n".to_vec(),
                64,
                "not a Netrace trace: it does not start with Netrace's magic number 0x484A5455",
            ),
            (
                version_2,
                64,
                "Netrace trace version 2 is not read, only version 1.0",
            ),
            (
                trace(64, 1),
                63,
                "the trace is of 64 nodes, more than this network's 63",
            ),
            (
                trace(16, 1),
                16,
                "netrace packet 0: destination 60 is not a node of this 16-node network",
            ),
            (
                trace(64, 7),
                64,
                "netrace packet 0: type 7 is not a packet type of Netrace's table",
            ),
        ];
        for (bytes, nodes, message) in cases {
            let error = read_netrace(&bytes[..], nodes).unwrap_err();
            assert_eq!(error.to_string(), message);
        }
    }

    #[test]
    fn the_type_table_has_the_sizes_of_netraces() {
        let sized: Vec<(u8, u8)> = (0..=255)
            .filter_map(|kind| Some((kind, packet_bytes(kind)?)))
            .collect();
        let expected = [
            (1, 8),
            (2, 72),
            (3, 72),
            (4, 72),
            (5, 8),
            (6, 72),
            (13, 8),
            (14, 8),
            (15, 8),
            (16, 72),
            (25, 8),
            (27, 8),
            (28, 8),
            (29, 8),
            (30, 72),
        ];
        assert_eq!(sized, expected);
    }
}
