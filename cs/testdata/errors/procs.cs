process P[i in 0..63] { skip; }
process Q { skip; } /* ERROR "too many processes \(at most 64\)" */
