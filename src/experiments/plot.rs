//! SVG charts for papers: a grid of line-chart panels ([`panels_svg`]), each axis linear or
//! logarithmic with its description and units, ticks labelled with readable numbers and a
//! legend; and a latency histogram in doubling buckets ([`histogram_svg`]). The experiments
//! draw with it: the network sweep against the load ([`super::network_sweep::report`]),
//! Fig. 4 against the network size ([`super::torus_fig4::report`]). Drawn with `plotters`;
//! text is SVG text, so the file needs no fonts and is the same bytes on every run.

use crate::network::stats::Bucket;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;

pub use plotters::chart::SeriesLabelPosition as LegendAt;

/// The line colours, in order (Tableau 10).
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// One line of a panel: its legend label and its points, in x order.
pub type Line = (String, Vec<(f64, f64)>);

/// An axis: its description with units, its range and its scale.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub desc: String,
    /// Lowest and highest value; both above 0 on a log scale.
    pub range: (f64, f64),
    pub log: bool,
}

impl Axis {
    /// A linear axis from 0 to `top`.
    pub fn linear(desc: &str, top: f64) -> Axis {
        Axis {
            desc: desc.to_string(),
            range: (0.0, top),
            log: false,
        }
    }

    /// A log axis over the decades that hold `values` (those above 0), so that its ends
    /// are labelled powers of ten; 1 to 10 when none is above 0.
    pub fn log(desc: &str, values: impl IntoIterator<Item = f64>) -> Axis {
        let (lo, hi) = values
            .into_iter()
            .filter(|&v| v > 0.0 && v.is_finite())
            .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (lo, hi) = match lo <= hi {
            true => (lo.log10().floor(), hi.log10().ceil()),
            false => (0.0, 1.0),
        };
        Axis {
            desc: desc.to_string(),
            range: (10f64.powf(lo), 10f64.powf(hi.max(lo + 1.0))),
            log: true,
        }
    }
}

/// One chart of a figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub lines: Vec<Line>,
    /// Draw the line y = x, dashed (accepted against offered load).
    pub diagonal: bool,
    /// Where the legend goes; none draws none (a row of panels may share one).
    pub legend_at: Option<LegendAt>,
}

/// `x` as a tick label: at most three significant digits, no trailing zeros (0.3, not
/// 0.30000000000000004; 0.001, 1000).
pub fn tick(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return "0".to_string();
    }
    let decimals = (2 - x.abs().log10().floor() as i64).max(0) as usize;
    let text = format!("{x:.decimals$}");
    match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.').to_string(),
        false => text,
    }
}

/// `panels` as an SVG document under `title`, `columns` panels a row.
pub fn panels_svg(title: &str, columns: usize, panels: &[Panel]) -> Result<String, String> {
    let rows = panels.len().div_ceil(columns.max(1));
    let mut svg = String::new();
    {
        let size = (1400, 60 + 340 * rows as u32);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled(title, ("sans-serif", 20))
            .map_err(|e| e.to_string())?;
        let areas = root.split_evenly((rows, columns));
        for (area, panel) in areas.iter().zip(panels) {
            draw_panel(area, panel)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Draws `panel` with each axis on its scale.
fn draw_panel(area: &Area, panel: &Panel) -> Result<(), String> {
    // A log axis a hair wider than its decades, so that both ends are labelled.
    let widen = |axis: &Axis| match axis.log {
        true => (axis.range.0 * 0.999, axis.range.1 * 1.001),
        false => axis.range,
    };
    let ((x0, x1), (y0, y1)) = (widen(&panel.x), widen(&panel.y));
    match (panel.x.log, panel.y.log) {
        (true, true) => draw_on(area, panel, (x0..x1).log_scale(), (y0..y1).log_scale()),
        (true, false) => draw_on(area, panel, (x0..x1).log_scale(), y0..y1),
        (false, true) => draw_on(area, panel, x0..x1, (y0..y1).log_scale()),
        (false, false) => draw_on(area, panel, x0..x1, y0..y1),
    }
}

/// Draws `panel` in coordinates `x` and `y`: mesh, labelled ticks, lines with their
/// points, the diagonal if asked, the legend.
fn draw_on<X, Y>(area: &Area, panel: &Panel, x: X, y: Y) -> Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let mut chart = ChartBuilder::on(area)
        .caption(panel.title.as_str(), ("sans-serif", 15))
        .margin(10)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(panel.x.desc.as_str())
        .y_desc(panel.y.desc.as_str())
        .x_labels(if panel.x.log { 5 } else { 8 })
        .y_labels(if panel.y.log { 5 } else { 6 })
        .x_label_formatter(&|x| tick(*x))
        .y_label_formatter(&|y| tick(*y))
        .axis_desc_style(("sans-serif", 13))
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(err)?;
    if panel.diagonal {
        let (lo, hi) = (
            panel.x.range.0.max(panel.y.range.0),
            panel.x.range.1.min(panel.y.range.1),
        );
        chart
            .draw_series(DashedLineSeries::new(
                [(lo, lo), (hi, hi)],
                6,
                4,
                BLACK.mix(0.6).stroke_width(1),
            ))
            .map_err(err)?
            .label("y = x")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLACK.mix(0.6)));
    }
    for (i, (label, line)) in panel.lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))
            .map_err(err)?
            .label(label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(err)?;
    }
    if let Some(at) = &panel.legend_at {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font(("sans-serif", 12))
            .position(at.clone())
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// Latency histograms as an SVG document under `title`: per doubling bucket of latency (a
/// run's `Summary.latency.histogram`), a bar per series (legend label, buckets) with the
/// share of that series' delivered messages in the bucket, in percent.
pub fn histogram_svg(title: &str, series: &[(String, Vec<Bucket>)]) -> Result<String, String> {
    let mut ranges: Vec<(u64, u64)> = series
        .iter()
        .flat_map(|(_, buckets)| buckets.iter().map(|b| (b.from, b.to)))
        .collect();
    ranges.sort_unstable();
    ranges.dedup();
    let shares: Vec<Vec<f64>> = series
        .iter()
        .map(|(_, buckets)| {
            let total = buckets.iter().map(|b| b.count).sum::<u64>().max(1) as f64;
            let share = |r: &(u64, u64)| {
                let count = buckets.iter().find(|b| (b.from, b.to) == *r);
                100.0 * count.map_or(0, |b| b.count) as f64 / total
            };
            ranges.iter().map(share).collect()
        })
        .collect();
    let top = shares
        .iter()
        .flatten()
        .fold(0.0f64, |m, &s| m.max(s))
        .max(1.0)
        * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        // x in hundredths of a bucket, so that the bars of a bucket share it.
        let n = ranges.len().max(1) as i32;
        let centres: Vec<i32> = (0..n).map(|i| 100 * i + 50).collect();
        let err = |e: DrawingAreaErrorKind<_>| e.to_string();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d((0..100 * n).with_key_points(centres), 0.0..top)
            .map_err(err)?;
        let label = |x: &i32| {
            let bucket = ranges.get((*x / 100) as usize).copied();
            let (from, to) = bucket.unwrap_or_default();
            format!("{from}–{to}")
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("total latency (cycles, doubling buckets)")
            .y_desc("delivered messages (%)")
            .x_label_formatter(&label)
            .y_label_formatter(&|y| tick(*y))
            .axis_desc_style(("sans-serif", 13))
            .label_style(("sans-serif", 12))
            .draw()
            .map_err(err)?;
        let width = 80 / series.len().max(1) as i32;
        for (s, ((name, _), shares)) in series.iter().zip(&shares).enumerate() {
            let colour = COLOURS[s % COLOURS.len()];
            let left = |i: usize| 100 * i as i32 + 10 + width * s as i32;
            let bars = shares.iter().enumerate().map(|(i, &share)| {
                Rectangle::new([(left(i), 0.0), (left(i) + width, share)], colour.filled())
            });
            chart
                .draw_series(bars)
                .map_err(err)?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font(("sans-serif", 12))
            .position(LegendAt::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `svg` writes `text` as a whole text element (plotters puts it on a line of
    /// its own).
    fn has_text(svg: &str, text: &str) -> bool {
        svg.contains(&format!("\n{text}\n</text>"))
    }

    #[test]
    fn ticks_are_readable_numbers() {
        assert_eq!(tick(0.1 + 0.2), "0.3");
        assert_eq!(tick(10f64.powf(-3.0)), "0.001");
        assert_eq!(tick(1000.0), "1000");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(12.5), "12.5");
        assert_eq!(tick(0.0), "0");
    }

    #[test]
    fn a_log_axis_spans_whole_decades() {
        let axis = Axis::log("latency (cycles)", [15.0, 900.0, 0.0]);
        assert_eq!(axis.range, (10.0, 1000.0));
        assert!(axis.log);
        assert_eq!(Axis::log("x", []).range, (1.0, 10.0));
    }

    fn latency_panel() -> Panel {
        Panel {
            title: "latency".to_string(),
            x: Axis::log("accepted load (bytes/node/cycle)", [0.01, 0.5]),
            y: Axis::log("mean latency (cycles)", [15.0, 900.0]),
            lines: vec![("a".to_string(), vec![(0.01, 15.0), (0.5, 900.0)])],
            diagonal: true,
            legend_at: Some(LegendAt::UpperLeft),
        }
    }

    #[test]
    fn a_log_panel_labels_its_decades_and_describes_its_axes() {
        let svg = panels_svg("t", 1, &[latency_panel()]).unwrap();
        let labels = ["10", "100", "1000", "0.01", "0.1", "1", "y = x"];
        let descs = ["mean latency (cycles)", "accepted load (bytes/node/cycle)"];
        for text in labels.iter().chain(&descs) {
            assert!(has_text(&svg, text), "{text}");
        }
        assert_eq!(svg, panels_svg("t", 1, &[latency_panel()]).unwrap());
    }

    #[test]
    fn a_histogram_has_a_bar_per_bucket_and_series() {
        let buckets = |counts: [u64; 3]| {
            let bounds = [(8, 15), (16, 31), (32, 63)];
            let of = bounds.iter().zip(counts);
            of.map(|(&(from, to), count)| Bucket { from, to, count })
                .collect::<Vec<_>>()
        };
        let series = [
            ("nack".to_string(), buckets([1, 2, 1])),
            ("vct".to_string(), buckets([0, 3, 1])),
        ];
        let svg = histogram_svg("latency", &series).unwrap();
        for text in [
            "8–15",
            "16–31",
            "32–63",
            "nack",
            "vct",
            "delivered messages (%)",
        ] {
            assert!(has_text(&svg, text), "{text}");
        }
        // Per series three bars (vct's first one 0 high) and its legend swatch.
        let rects = |fill: &str| {
            let of = svg.lines().filter(|l| l.starts_with("<rect"));
            of.filter(|l| l.contains(&format!("fill=\"{fill}\"")))
                .count()
        };
        assert_eq!((rects("#1F77B4"), rects("#D62728")), (4, 4), "{svg}");
        assert_eq!(svg, histogram_svg("latency", &series).unwrap());
    }
}
