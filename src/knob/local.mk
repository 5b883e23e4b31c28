# knob layer sources
