# ui layer sources
