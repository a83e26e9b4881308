#!/usr/bin/env bash
# Renders the home page hero loops and their poster frames with ffmpeg's lavfi filters only
# (no input files, nothing downloaded):
#
#   public/hero/desktop.mp4  1280x720   public/hero/desktop.jpg  (first frame)
#   public/hero/mobile.mp4    720x1280  public/hero/mobile.jpg   (first frame)
#
# The scene: a dark basketball court seen from above, ten players running a possession, the
# athlete with the ball tagged by a red tracking ring and a "#23" label (our face and
# jersey-number matching), a spotlight that follows the play, a slow broadcast-camera drift,
# a soft scan sweep, vignette and film grain.
#
# Everything that moves is periodic in the clip length LOOP, so the last frame flows into the
# first one and the <video loop> has no visible seam. The picture is kept dark on purpose: the
# page puts the big white "GET IT ON TAPE." headline on top of it.
#
# Usage: scripts/make-hero-media.sh [output-dir]     (default: public/hero)
# Needs: ffmpeg with libx264 and drawtext (Debian: apt-get install -y ffmpeg), DejaVu fonts.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT_DIR="${1:-public/hero}"
mkdir -p "$OUT_DIR"

command -v ffmpeg >/dev/null || { echo "ffmpeg not found (apt-get install -y ffmpeg)" >&2; exit 1; }

FONT_SANS=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
for f in "$FONT_SANS"; do
  [ -f "$f" ] || { echo "font not found: $f (apt-get install -y fonts-dejavu-core)" >&2; exit 1; }
done

LOOP=8         # seconds; every motion below repeats exactly after LOOP seconds
FPS=25
FRAMES=$((LOOP * FPS))
W="(2*PI/$LOOP)"   # angular speed of one cycle per loop

# ---------------------------------------------------------------------------------------------
# The scene is drawn once in landscape "court" coordinates on a 1440x810 canvas (a little larger
# than the 1280x720 output so the camera can drift). The portrait clip transposes that scene.
# ---------------------------------------------------------------------------------------------
SW=1440; SH=810
S=14            # pixels per foot: a 94 x 50 ft court is 1316 x 700 px
CX=720; CY=405  # court centre on the canvas

# Anti-aliased line of about 3 px around distance d (given in feet).
line() { echo "clip(1.9-abs($1)*$S,0,1)"; }

# Court markings (lines), painted areas and the apron outside the court, in feet:
# ld(0)=u along the court, ld(1)=v across, ld(2)=|u|, ld(3)=|v|.
COURT_PRE="st(0,(X-$CX)/$S);st(1,(Y-$CY)/$S);st(2,abs(ld(0)));st(3,abs(ld(1)));"
LINES="max($(line 'max(ld(2)-47,ld(3)-25)'),\
max($(line 'ld(0)')*lte(ld(3),25),\
max($(line 'hypot(ld(0),ld(1))-6'),\
max($(line 'max(abs(ld(2)-37.5)-9.5,ld(3)-8)'),\
max($(line 'hypot(ld(2)-28,ld(1))-6')*lte(ld(2),28),\
max($(line 'hypot(ld(2)-41.75,ld(1))-23.75')*lt(ld(2),41.75)*lt(ld(3),22),\
max($(line 'ld(3)-22')*gte(ld(2),32.8)*lte(ld(2),47),\
max($(line 'ld(2)-43')*lte(ld(3),3),\
max($(line 'hypot(ld(2)-41.75,ld(1))-4')*lte(ld(2),41.75),\
$(line 'hypot(ld(2)-41.75,ld(1))-0.75'))))))))))"
COURT_PRE+="st(4,$LINES);"
# paint: the two lanes and the centre circle
COURT_PRE+="st(5,gt(ld(2),28)*lt(ld(2),47)*lt(ld(3),8)+0.4*lt(hypot(ld(0),ld(1)),6));"
# apron: everything outside the boundary
COURT_PRE+="st(6,gt(max(ld(2)-47,ld(3)-25),0));"
# Maple planks 13 px wide running along the court, staggered board ends, seams and grain.
COURT_PRE+="st(0,floor(Y/13));st(1,sin(ld(0)*12.9898)*43758.5453);st(1,ld(1)-floor(ld(1)));"
COURT_PRE+="st(2,(X+ld(1)*320)/320);"
COURT_PRE+="st(3,sin(ld(0)*78.233+floor(ld(2))*37.719)*43758.5453);st(3,ld(3)-floor(ld(3)));"
COURT_PRE+="st(7,(0.84+0.26*ld(3))*(1-0.32*lt(mod(Y,13),1))*(1-0.3*lt(ld(2)-floor(ld(2)),0.004))"
COURT_PRE+="*(1+0.05*sin(X*0.07+3*sin(Y*0.23+ld(3)*6))));"

# One colour channel of the court: wood, paint, apron and lines (values as if under full light).
court_channel() { # wood paint apron line
  echo "${COURT_PRE}st(8,$1*ld(7)*(1-0.72*ld(5))+$2*0.72*ld(5)*ld(7));\
st(8,ld(8)*(1-ld(6))+$3*ld(7)*ld(6));ld(8)*(1-ld(4))+$4*ld(4)"
}
COURT_R=$(court_channel 168 150 60 238)
COURT_G=$(court_channel 116 30 58 236)
COURT_B=$(court_channel 74 36 64 230)

# Ambient light: a pool over the middle of the court and two softer pools over the ends.
LIGHT="46+44*exp(-(pow((X-$CX)/640,2)+pow((Y-$CY)/360,2)))\
+16*exp(-(pow((X-330)/210,2)+pow((Y-$CY)/250,2)))+16*exp(-(pow((X-1110)/210,2)+pow((Y-$CY)/250,2)))"

# ---------------------------------------------------------------------------------------------
# Motion. #23 brings the ball up and down the court on a figure-eight; everyone else runs with
# the play, each with a lag and a wobble of their own.
# ---------------------------------------------------------------------------------------------
px() { echo "($CX+330*sin($W*(t-($1))))"; }           # x of the play, delayed by $1 s
py() { echo "($CY+150*sin(2*$W*(t-($1))))"; }         # y of #23, delayed by $1 s
X23=$(px 0); Y23=$(py 0)
BOUNCE="abs(sin(PI*10*t/$LOOP))"                      # dribble height 0..1, 10 bounces a loop
BX="($X23+6)"; BY="($Y23+24)"

# Player sprites are 44x44 (centre 22). name:team:x:y
PLAYERS=(
  "a23:A:$X23:$Y23"
  "a2:A:($(px 0.8)+150+20*sin(2*$W*t+1)):(185+40*sin(2*$W*t+1))"
  "a3:A:($(px 1.2)-120+25*sin(2*$W*t+2)):(630+35*sin(2*$W*t+2))"
  "a4:A:($(px 0.6)+250+15*sin($W*t+3)):(470+60*sin($W*t+0.5))"
  "a5:A:($(px 1.5)-40+20*sin(2*$W*t)):(300+50*sin(2*$W*t+3))"
  "b1:B:($(px 0.3)+52):($(py 0.3)-18)"
  "b2:B:($(px 0.9)+185+20*sin(2*$W*t+2.2)):(235+40*sin(2*$W*t+2.2))"
  "b3:B:($(px 1.1)-80+25*sin(2*$W*t+0.4)):(585+40*sin(2*$W*t))"
  "b4:B:($(px 0.7)+295+20*sin($W*t+1)):(400+70*sin($W*t+1.5))"
  "b5:B:($(px 1.6)+25+15*sin(2*$W*t+0.7)):(140+30*sin(2*$W*t+0.7))"
)

# A player seen from above: shoulders (ellipse), head, and a soft shadow. $1..$3 jersey colour.
player_sprite() {
  local body="clip((1-hypot((X-21.5)/11,(Y-21.5)/19))*10,0,1)"
  local head="0.9*clip(7.8-hypot(X-21.5,Y-21.5),0,1)"
  local shadow="0.5*clip(1-hypot(X-25,Y-25)/20,0,1)"
  local pre="st(0,$body);st(1,$head);st(2,$shadow);st(3,ld(0)+ld(2)*(1-ld(0)));"
  local shade="(1.08-0.25*hypot(X-18,Y-16)/17)"
  printf "format=gbrap,geq=r='%s':g='%s':b='%s':a='%s'" \
    "${pre}if(ld(3),($1*(1-ld(1))+62*ld(1))*ld(0)*$shade/ld(3),0)" \
    "${pre}if(ld(3),($2*(1-ld(1))+44*ld(1))*ld(0)*$shade/ld(3),0)" \
    "${pre}if(ld(3),($3*(1-ld(1))+34*ld(1))*ld(0)*$shade/ld(3),0)" \
    "${pre}255*ld(3)"
}

# Basketball, 40x40, radius 13, lit from the top left, with seams.
BALL_PRE="st(0,X-19.5);st(1,Y-19.5);st(2,clip(13.5-hypot(ld(0),ld(1)),0,1));\
st(3,clip(1.15-hypot(ld(0)+5,ld(1)+5)/17,0.35,1.15));\
st(4,max(clip(1-abs(ld(0)),0,1),max(clip(1-abs(ld(1)),0,1),\
max(clip(1-abs(hypot(ld(0)-19,ld(1))-13),0,1),clip(1-abs(hypot(ld(0)+19,ld(1))-13),0,1)))));"
BALL="format=gbrap,geq=r='${BALL_PRE}(212*(1-ld(4))+40*ld(4))*ld(3)':\
g='${BALL_PRE}(98*(1-ld(4))+22*ld(4))*ld(3)':b='${BALL_PRE}(40*(1-ld(4))+16*ld(4))*ld(3)':a='${BALL_PRE}255*ld(2)'"
BALL_SHADOW="format=gbrap,geq=r=0:g=0:b=0:a='150*exp(-pow(hypot(X-23.5,Y-23.5)/9,2))'"

# Tracking ring and four corner brackets in the brand red (#ef4444), 128x128, centre 63.5.
RING_PRE="st(0,X-63.5);st(1,Y-63.5);st(2,abs(ld(0)));st(3,abs(ld(1)));\
st(4,0.9*clip(1.7-abs(hypot(ld(0),ld(1))-30),0,1));\
st(5,max(clip(2-abs(ld(2)-41),0,1)*between(ld(3),28,42.5),clip(2-abs(ld(3)-41),0,1)*between(ld(2),28,42.5)));\
st(6,max(ld(4),ld(5)));"
RING="format=gbrap,geq=r='${RING_PRE}239':g='${RING_PRE}68':b='${RING_PRE}68':a='${RING_PRE}255*ld(6)'"

SPOT="format=gbrap,geq=r=255:g=255:b=255:a='150*exp(-pow(hypot(X-400,Y-400)/250,2))'"

# A single generated frame, repeated for the whole clip (geq runs once, not once per frame).
still() { # size filters label
  echo "color=c=black:s=$1:r=$FPS:d=1,trim=end_frame=1,$2,loop=loop=-1:size=1:start=0,setpts=N/($FPS*TB)[$3];"
}

render() { # orientation: desktop | mobile
  local kind=$1 ow oh graph=""
  local cam_t="(t-0.6)" cam_in="(in/$FPS-0.6)"
  local dx dy ox oy lx ly
  if [ "$kind" = desktop ]; then
    ow=1280; oh=720; ox=80; oy=45
    dx="70*sin($W*$cam_in)"; dy="35*sin(2*$W*$cam_in)"
    # where the top-right of #23's ring lands in the output
    lx="$X23-$ox-70*sin($W*$cam_t)+44"; ly="$Y23-$oy-35*sin(2*$W*$cam_t)-66"
  else
    ow=720; oh=1280; ox=45; oy=80
    dx="35*sin(2*$W*$cam_in)"; dy="70*sin($W*$cam_in)"
    lx="$Y23-$ox-35*sin(2*$W*$cam_t)+44"; ly="$X23-$oy-70*sin($W*$cam_t)-66"
  fi

  graph+=$(still ${SW}x${SH} "format=gbrp,geq=r='$COURT_R':g='$COURT_G':b='$COURT_B'" court)
  graph+=$(still ${SW}x${SH} "format=gray,geq=lum='$LIGHT',format=gbrp" ambient)
  graph+=$(still 800x800 "$SPOT" spot)
  graph+=$(still 40x40 "$BALL" ballstill)
  graph+=$(still 48x48 "$BALL_SHADOW" ballshadow)
  graph+=$(still 128x128 "$RING" ringstill)
  graph+=$(still 44x44 "$(player_sprite 206 206 212)" teamA)
  graph+=$(still 44x44 "$(player_sprite 196 38 46)" teamB)
  graph+="[teamA]split=5[pa0][pa1][pa2][pa3][pa4];[teamB]split=5[pb0][pb1][pb2][pb3][pb4];"
  graph+="[ballstill]rotate=a='4*PI*t/$LOOP':c=none[ball];"
  graph+="[ringstill]rotate=a='PI/2*t/$LOOP':c=none[ring];"

  # players, then the ball's shadow and the ball
  local prev=court i=0 a=0 b=0 p name team x y src
  for p in "${PLAYERS[@]}"; do
    IFS=: read -r name team x y <<<"$p"
    if [ "$team" = A ]; then src="pa$a"; a=$((a + 1)); else src="pb$b"; b=$((b + 1)); fi
    graph+="[$prev][$src]overlay=x='$x-22':y='$y-22':format=gbrp[s$i];"
    prev="s$i"; i=$((i + 1))
  done
  graph+="[$prev][ballshadow]overlay=x='$BX-24+4+14*$BOUNCE':y='$BY-24+6+10*$BOUNCE':format=gbrp[sb];"
  graph+="[sb][ball]overlay=x='$BX-20':y='$BY-20':format=gbrp[unlit];"

  # lighting: ambient pools plus a spotlight that trails the play, multiplied onto the scene
  graph+="[ambient][spot]overlay=x='$(px 0.4)-400':y='$(py 0.4)*0.6+$CY*0.4-400':format=gbrp[light];"
  graph+="[unlit][light]blend=all_mode=multiply[lit];"
  graph+="[lit][ring]overlay=x='$X23-64':y='$Y23-64':format=gbrp[scene];"

  # camera: (portrait: transpose the scene), sub-pixel drift that follows the play, crop
  local cam="[scene]"
  [ "$kind" = mobile ] && cam+="transpose=0,"
  cam+="perspective=eval=frame:interpolation=linear:\
x0='$dx':y0='$dy':x1='W+$dx':y1='$dy':x2='$dx':y2='H+$dy':x3='W+$dx':y3='H+$dy',crop=$ow:$oh:$ox:$oy[cam];"
  graph+="$cam"

  # scan sweep: two passes a loop, a faint trailing glow and a thin leading edge
  graph+=$(still ${ow}x200 "format=gbrap,geq=r=255:g=255:b=255:a='16*exp(-pow((Y-150)/45,2))*if(lt(Y,150),1,1-(Y-150)/50)+14*exp(-pow((Y-196)/2,2))'" sweepstill)
  graph+="[cam][sweepstill]overlay=x=0:y='-200+mod(2*t/$LOOP,1)*($oh+200)':format=gbrp,"

  # finish: grade, vignette, grain, tracking label. No corner HUD: the page shows the clip with
  # object-fit: cover, which crops the edges differently on every screen.
  graph+="format=yuv420p,eq=contrast=1.04:saturation=0.9,vignette=angle=PI/4.2,"
  graph+="noise=c0s=7:c0f=t+u:c0_seed=2324,"
  graph+="drawtext=fontfile=$FONT_SANS:text='#23':fontsize=15:fontcolor=white:box=1:boxcolor=0xEF4444@0.9:boxborderw=5:x='$lx':y='$ly'"
  graph+="[v]"

  local tmp; tmp=$(mktemp)
  printf '%s' "$graph" >"$tmp"
  ffmpeg -hide_banner -loglevel error -y -filter_complex_script "$tmp" -map '[v]' \
    -frames:v "$FRAMES" -r "$FPS" -an -map_metadata -1 \
    -c:v libx264 -preset slow -crf 24 -maxrate 1300k -bufsize 2600k \
    -pix_fmt yuv420p -profile:v high -level 4.0 -g $((FPS * 2)) \
    -movflags +faststart "$OUT_DIR/$kind.mp4"
  rm -f "$tmp"
  ffmpeg -hide_banner -loglevel error -y -i "$OUT_DIR/$kind.mp4" -frames:v 1 -q:v 3 "$OUT_DIR/$kind.jpg"
  echo "$OUT_DIR/$kind.mp4 $(stat -c %s "$OUT_DIR/$kind.mp4") bytes, $OUT_DIR/$kind.jpg $(stat -c %s "$OUT_DIR/$kind.jpg") bytes"
}

render desktop
render mobile
