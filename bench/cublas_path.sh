# Sourced by the GPU scripts that use `tilus-run --compare cublas`: tilus-run loads libcublas at
# run time, so the CUDA toolkit's and PyTorch's copies go on the loader's path.
cublas_dirs=$(python3 - <<'PY' 2>/dev/null
import glob, os, sys
ds = ["/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"]
for p in sys.path:
    ds += glob.glob(os.path.join(p, "nvidia", "*", "lib")) + glob.glob(os.path.join(p, "nvidia", "cu*", "lib"))
print(":".join(d for d in ds if glob.glob(os.path.join(d, "libcublas.so*"))))
PY
)
export LD_LIBRARY_PATH="${cublas_dirs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
