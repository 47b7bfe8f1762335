"""Pages & API: what every HTTP view shares of input and error policy (the request gate, body parsers, query
parameters, error answers). Views, serializers and consumers live in their apps; this is their common edge."""
