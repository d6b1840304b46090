// Prints random and edge-case field operations (mod p) with their results for test/check.py:
// random operands, then every element whose limbs come from the carry edges {0, 1, 2^63-1,
// 2^63, 2^63+1, 2^64-2, 2^64-1} against each element with all limbs equal to one of them.
#include "field.h"
#include <cstdio>
#include <cstdlib>
using namespace msm;
static uint64_t rnd(){ return ((uint64_t)rand()<<42)^((uint64_t)rand()<<21)^rand(); }
static void pr(const Fe& a){ Fe t=a; fe_normalize(t); for(int i=3;i>=0;i--) printf("%016lx",t.v[i]); }
static void prraw(const Fe& t){ for(int i=3;i>=0;i--) printf("%016lx",t.v[i]); }
static const uint64_t EDGE[7]={0,1,0x7FFFFFFFFFFFFFFFULL,0x8000000000000000ULL,0x8000000000000001ULL,~1ULL,~0ULL};
static void line(const Fe& a,const Fe& b){
  Fe m,q,s,d,ng,m3,iv; fe_mul(m,a,b); fe_sqr(q,a); fe_add(s,a,b); fe_sub(d,a,b); fe_neg(ng,a); fe_mul_small(m3,a,8); fe_inv(iv,a);
  prraw(a);printf(" ");prraw(b);printf(" ");pr(m);printf(" ");pr(q);printf(" ");pr(s);printf(" ");pr(d);printf(" ");pr(ng);printf(" ");pr(m3);printf(" ");pr(iv);printf("\n");
}
int main(){
  for(int e=0;e<7*7*7*7;e++) for(int u=0;u<7;u++){
    Fe a,b; for(int i=0,r=e;i<4;i++,r/=7){a.v[i]=EDGE[r%7];b.v[i]=EDGE[u];}
    line(a,b); line(b,a);
  }
  for(int k=0;k<20000;k++){
    Fe a,b; for(int i=0;i<4;i++){a.v[i]=rnd();b.v[i]=rnd();}
    int mode=k%6;
    // weakly reduced inputs: any value < 2^256
    if(mode==1){ a.v[3]=a.v[2]=a.v[1]=~0ULL; a.v[0]=0xFFFFFFFEFFFFFC2FULL + (rand()%100); }
    if(mode==2){ b.v[3]=b.v[2]=b.v[1]=~0ULL; b.v[0]=~0ULL - (rand()%3); }
    if(mode==3){ a.v[1]=a.v[2]=a.v[3]=0; a.v[0]=rand()%3; }
    if(mode==4){ for(int i=0;i<4;i++) b.v[i]=a.v[i]; }
    line(a,b);
  }
}
