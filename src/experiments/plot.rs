//! SVG line charts: a grid of panels, each with a log-scale x axis and one line per
//! series. The experiments draw with it: the Kautz sweep against the injection rate
//! ([`super::network_sweep::report`]), Fig. 4 against the network size
//! ([`super::torus_fig4::report`]). Drawn with `plotters`; text is SVG text, so the file
//! needs no fonts and is the same bytes on every machine.

use plotters::prelude::*;

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// One line of a panel: its legend label and its points, in x order.
pub type Line = (String, Vec<(f64, f64)>);

/// One chart of a figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub x_desc: &'static str,
    /// The x axis (log scale), lowest and highest value; both above 0.
    pub x_range: (f64, f64),
    /// The top of the y axis, which starts at 0.
    pub y_top: f64,
    pub lines: Vec<Line>,
}

/// `panels` as an SVG document under `title`, `columns` panels a row.
pub fn panels_svg(title: &str, columns: usize, panels: &[Panel]) -> Result<String, String> {
    let rows = panels.len().div_ceil(columns.max(1));
    let mut svg = String::new();
    {
        let size = (1400, 60 + 300 * rows as u32);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled(title, ("sans-serif", 22))
            .map_err(|e| e.to_string())?;
        let areas = root.split_evenly((rows, columns));
        for (area, panel) in areas.iter().zip(panels) {
            draw_panel(area, panel)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn draw_panel(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    panel: &Panel,
) -> Result<(), String> {
    let (lo, hi) = panel.x_range;
    let mut chart = ChartBuilder::on(area)
        .caption(panel.title.as_str(), ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(32)
        .y_label_area_size(48)
        .build_cartesian_2d((lo..hi).log_scale(), 0.0..panel.y_top)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc(panel.x_desc)
        .x_label_formatter(&|x| format!("{x}"))
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, (label, line)) in panel.lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(())
}
