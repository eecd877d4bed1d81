"""Reads the files of `kautzgen export` with networkx, as a user would, for
tests/suite/cli_export.rs: one JSON line per file named on the command line, with the node
and arc counts, the largest out-degree, the diameter and the mean distance over every
ordered pair of distinct nodes; for GraphML also the graph's attributes, every node's name
and every edge's ports."""

import json
import sys

import networkx as nx


def figures(graph):
    return {
        "nodes": graph.number_of_nodes(),
        "arcs": graph.number_of_edges(),
        "max_out_degree": max(degree for _, degree in graph.out_degree()),
        "diameter": nx.diameter(graph),
        "mean_distance": nx.average_shortest_path_length(graph),
    }


def read(path):
    if path.endswith(".graphml"):
        graph = nx.read_graphml(path, node_type=int)
        found = figures(graph)
        found["directed"] = graph.is_directed()
        found["graph"] = {key: graph.graph[key] for key in ("topology", "kautzgen", "command")}
        found["names"] = [graph.nodes[v]["name"] for v in sorted(graph)]
        found["ports"] = sorted(
            [u, v, data["out_port"], data["in_port"]] for u, v, data in graph.edges(data=True)
        )
        return found
    return figures(nx.read_edgelist(path, create_using=nx.DiGraph, nodetype=int))


for path in sys.argv[1:]:
    print(json.dumps(read(path)))
